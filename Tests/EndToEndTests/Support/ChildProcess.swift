import Foundation
import Synchronization

/// A child process with piped stdin, stdout and stderr, driven without ever blocking a
/// cooperative thread: writes go through a serial queue, reads through one thread per stream.
final class ChildProcess: Sendable {
    let executable: String
    let arguments: [String]

    private let process: Process
    private let input: FileHandle
    private let writes: DispatchQueue
    private let inputClosed = Mutex(false)
    let stdout = StreamBuffer()
    let stderr = StreamBuffer()
    private let exit = Mutex<(status: Int32, at: ContinuousClock.Instant)?>(nil)
    /// The journal directory a daemon started by this child gets unless the test names one: its own,
    /// so no test resumes another's deliveries.
    private let ownStateDirectory: String?

    /// Variables that make libcurl use a proxy: tests talk to loopback only.
    static let proxyVariables: Set<String> = [
        "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "no_proxy", "NO_PROXY",
    ]

    /// What a child inherits: this process's environment minus proxy variables, journald's and
    /// beaconctl's own, and no config file, so a test sees only the settings it gives.
    static func environment(_ overrides: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { name, _ in
            !proxyVariables.contains(name) && name != "JOURNAL_STREAM" && !name.hasPrefix("BEACONCTL_") && name != "STATE_DIRECTORY"
        }
        environment["BEACONCTL_CONFIG"] = "/dev/null"
        environment.merge(overrides) { $1 }
        return environment
    }

    /// What the test does with one of the child's output pipes.
    enum Output {
        /// Reads everything as it comes.
        case read
        /// Reads nothing until ``StreamBuffer/resume()``: a reader that stalls, the pipe fills.
        case paused
        /// Closes the reading end at once: the child's writes fail (EPIPE, SIGPIPE).
        case closed
    }

    /// Starts `executable` with `arguments` in `environment(overrides)`.
    init(
        executable: String, arguments: [String], environment overrides: [String: String] = [:], stdout stdoutUse: Output = .read,
        stderr stderrUse: Output = .read
    ) throws {
        Self.ignoreBrokenPipes
        self.executable = executable
        self.arguments = arguments
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var overrides = overrides
        if overrides["STATE_DIRECTORY"] == nil {
            let state = NSTemporaryDirectory() + "beaconctl-test-state-" + UUID().uuidString
            overrides["STATE_DIRECTORY"] = state
            ownStateDirectory = state
        } else {
            ownStateDirectory = nil
        }
        process.environment = Self.environment(overrides)
        let (stdinPipe, stdoutPipe, stderrPipe) = (Pipe(), Pipe(), Pipe())
        for pipe in [stdinPipe, stdoutPipe, stderrPipe] {
            // A child spawned concurrently by another test must not inherit these ends.
            for fd in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        self.process = process
        self.input = stdinPipe.fileHandleForWriting
        self.writes = DispatchQueue(label: "child-stdin")
        process.terminationHandler = { [weak self] finished in
            self?.exit.withLock { $0 = (finished.terminationStatus, .now) }
        }
        try process.run()
        stdout.start(stdoutUse, stdoutPipe.fileHandleForReading)
        stderr.start(stderrUse, stderrPipe.fileHandleForReading)
    }

    deinit {
        kill()
        if let ownStateDirectory { try? FileManager.default.removeItem(atPath: ownStateDirectory) }
    }

    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    static let env = "/usr/bin/env"

    /// Whether `env --default-signal=PIPE` works (GNU coreutils 8.31 and later). A child inherits the
    /// test's ignored SIGPIPE, and so would never be killed by one; a shell starts programs with the default.
    static let canRestoreDefaultSIGPIPE: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: env)
        probe.arguments = ["--default-signal=PIPE", "true"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    var processIdentifier: Int32 { process.processIdentifier }

    /// Queues `bytes` for stdin; the writes happen in order, off the cooperative pool.
    func write(_ bytes: [UInt8]) {
        let fd = input.fileDescriptor
        writes.async { [self] in
            guard !inputClosed.withLock({ $0 }) else { return }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Queues `lines`, each followed by a newline.
    func write(lines: [String]) {
        write(Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Closes stdin once every queued write is done: the child sees the end of its input.
    func closeInput() {
        writes.async { [self] in
            let wasClosed = inputClosed.withLock { value in
                defer { value = true }
                return value
            }
            if !wasClosed { try? input.close() }
        }
    }

    /// The exit status once the child ended, nil while it runs.
    var exitStatus: Int32? { exit.withLock { $0?.status } }

    /// When the child was seen to end.
    var exitedAt: ContinuousClock.Instant? { exit.withLock { $0?.at } }

    /// Waits for the child to end; throws when it is still running after `timeout`.
    @discardableResult
    func waitForExit(timeout: Duration = .seconds(15)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = exitStatus { return status }
            guard ContinuousClock.now < deadline else {
                throw TestFailure("\(describe) still running after \(timeout)\n\(stderr.text.suffix(3000))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sends SIGTERM.
    func terminate() {
        guard exitStatus == nil else { return }
        Glibc.kill(process.processIdentifier, SIGTERM)
    }

    /// Sends SIGKILL if the child still runs.
    func kill() {
        guard exitStatus == nil, process.processIdentifier > 0 else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
    }

    var describe: String { "\((executable as NSString).lastPathComponent) \(arguments.joined(separator: " "))" }
}

/// Everything a child wrote on one stream, filled by a dedicated reading thread.
final class StreamBuffer: Sendable {
    private let bytes = Mutex<[UInt8]>([])
    private let ended = Mutex(false)
    private let reading = DispatchSemaphore(value: 0)

    func start(_ use: ChildProcess.Output, _ handle: FileHandle) {
        switch use {
        case .read: reading.signal()
        case .paused: break
        case .closed:
            try? handle.close()
            ended.withLock { $0 = true }
            return
        }
        let fd = handle.fileDescriptor
        let thread = Thread { [self] in
            reading.wait()
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                bytes.withLock { $0.append(contentsOf: chunk[..<count]) }
            }
            ended.withLock { $0 = true }
            try? handle.close()
        }
        thread.start()
    }

    /// Starts reading a stream started `.paused`.
    func resume() { reading.signal() }

    var text: String { String(decoding: contents, as: UTF8.self) }

    /// Every byte so far, for output that is not text.
    var contents: [UInt8] { bytes.withLock { $0 } }

    /// Complete lines so far.
    var lines: [String] {
        let all = text
        var lines = all.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if !all.hasSuffix("\n") || lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Whether the stream reached its end.
    var isFinished: Bool { ended.withLock { $0 } }
}
