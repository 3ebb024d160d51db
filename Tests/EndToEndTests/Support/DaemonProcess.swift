import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation

/// The real `beaconctl run` in a child process, with its own control socket in a fresh directory.
final class DaemonProcess: Sendable {
    let child: ChildProcess
    let directory: TemporaryDirectory
    let socketPath: String

    /// Starts `beaconctl run --socket <fresh path> <arguments>`, with `environment` over the test's own.
    /// With `defaultSIGPIPE`, the daemon starts with SIGPIPE's default action, as from a shell, instead
    /// of inheriting the test's SIG_IGN (see ``ChildProcess/canRestoreDefaultSIGPIPE``).
    init(
        _ arguments: [String], environment: [String: String] = [:], stdout: ChildProcess.Output = .read, stderr: ChildProcess.Output = .read,
        defaultSIGPIPE: Bool = false
    ) throws {
        directory = try TemporaryDirectory()
        socketPath = directory.file("c.sock")
        let command = [BeaconctlBinary.path, "run", "--socket", socketPath] + arguments
        child = try ChildProcess(
            executable: defaultSIGPIPE ? ChildProcess.env : command[0],
            arguments: defaultSIGPIPE ? ["--default-signal=PIPE"] + command : Array(command.dropFirst()), environment: environment,
            stdout: stdout, stderr: stderr)
    }

    deinit { child.kill() }

    // MARK: Input

    func send(_ lines: [String]) { child.write(lines: lines) }
    func send(_ line: String) { child.write(lines: [line]) }
    func send(bytes: [UInt8]) { child.write(bytes) }
    /// Ends stdin: with `--stdin` the daemon drains and exits.
    func closeInput() { child.closeInput() }

    // MARK: Output

    var stdoutLines: [String] { child.stdout.lines }
    var stderrLines: [String] { child.stderr.lines }
    var stderrText: String { child.stderr.text }

    /// The session's JSON line on stdout.
    func sessionLine(timeout: Duration = .seconds(10)) async throws -> String {
        try await eventuallyValue(timeout: timeout, "the session line on stdout\n\(stderrText.suffix(2000))") {
            try checkRunning()
            return stdoutLines.first
        }
    }

    // MARK: Control socket

    /// One line over the control socket; its reply.
    func request(_ line: String, timeout: Duration = .seconds(5)) async throws -> String {
        // A status of many ad breaks or long URLs passes the CLI's 64 KiB; tests read it whole.
        try await ControlSocketClient.request(path: socketPath, line: line, timeout: timeout, maxReplyBytes: 16 << 20)
    }

    func statusLine() async throws -> String { try await request("status") }

    func status() async throws -> StatusReport {
        try StatusReport.decode(jsonLine: try await statusLine())
    }

    /// Waits until the control socket answers `status`. A daemon starting on a loaded machine may
    /// take a while to answer its first one: a request timing out is asked again until `timeout`.
    @discardableResult
    func waitUntilListening(timeout: Duration = .seconds(30)) async throws -> StatusReport {
        try await eventuallyValue(timeout: timeout, "the control socket of \(child.describe)\n\(stderrText.suffix(2000))") {
            try checkRunning()
            do {
                return try await status()
            } catch ControlSocketClientError.noDaemon {
                return nil
            } catch ControlSocketClientError.timedOut {
                return nil
            }
        }
    }

    /// Waits until the status satisfies `condition`; returns that status. A status request timing out
    /// (the machine, not the daemon, was slow: a daemon that stays silent fails at `timeout`) is asked again.
    @discardableResult
    func waitForStatus(
        timeout: Duration = .seconds(10), _ what: String, _ condition: (StatusReport) -> Bool
    ) async throws -> StatusReport {
        var last: StatusReport?
        do {
            return try await eventuallyValue(timeout: timeout, what) {
                try checkRunning()
                let report: StatusReport
                do {
                    report = try await status()
                } catch ControlSocketClientError.noDaemon {
                    return nil  // not listening yet
                } catch ControlSocketClientError.timedOut {
                    return nil
                }
                last = report
                return condition(report) ? report : nil
            }
        } catch let failure as TestFailure {
            throw TestFailure("\(failure.description)\nlast status: \(last?.jsonLine() ?? "none")\n\(stderrText.suffix(2000))")
        }
    }

    // MARK: Life

    private func checkRunning() throws {
        if let status = child.exitStatus {
            throw TestFailure("\(child.describe) exited with \(status)\n\(stderrText.suffix(3000))")
        }
    }

    @discardableResult
    func waitForExit(timeout: Duration = .seconds(15)) async throws -> Int32 {
        try await child.waitForExit(timeout: timeout)
    }

    func terminate() { child.terminate() }
    func kill() { child.kill() }
}

/// Runs `body` with a daemon started with `arguments` (and `environment`), killing it however `body` ends.
func withDaemon<R>(
    _ arguments: [String], environment: [String: String] = [:], _ body: (DaemonProcess) async throws -> R
) async throws -> R {
    let daemon = try DaemonProcess(arguments, environment: environment)
    defer {
        daemon.kill()
        daemon.directory.remove()
    }
    return try await body(daemon)
}

/// What a short `beaconctl` command did.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `beaconctl <arguments>` to its end.
func runBeaconctl(
    _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(20)
) async throws -> CommandResult {
    try await runProgram(BeaconctlBinary.path, arguments, environment: environment, timeout: timeout)
}

/// Runs `executable <arguments>`, with `environment` over the test's own, to its end.
func runProgram(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(20)
) async throws -> CommandResult {
    let child = try ChildProcess(executable: executable, arguments: arguments, environment: environment)
    child.closeInput()
    defer { child.kill() }
    let status = try await child.waitForExit(timeout: timeout)
    try await eventually(timeout: .seconds(5), "the output of \(child.describe) to end") {
        child.stdout.isFinished && child.stderr.isFinished
    }
    return CommandResult(status: status, stdout: child.stdout.text, stderr: child.stderr.text)
}
