import Foundation
import Synchronization
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// A fresh, short directory under /tmp (sun_path holds 107 bytes), removed when `body` ends.
func withTemporaryDirectory<R>(_ body: (String) async throws -> R) async throws -> R {
    var template = Array("/tmp/bc-XXXXXX".utf8CString)
    let directory = template.withUnsafeMutableBufferPointer { buffer -> String? in
        guard let result = mkdtemp(buffer.baseAddress!) else { return nil }
        return String(cString: result)
    }
    let path = try #require(directory)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

struct TestTimeout: Error, CustomStringConvertible {
    var description: String
}

/// Polls `condition` (a recorder's count, or an actor's state) until it holds, or fails after `timeout`.
func eventually(
    timeout: Duration = .seconds(10),
    _ what: String,
    _ condition: () async -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while !(await condition()) {
        guard ContinuousClock.now < deadline else { throw TestTimeout(description: "timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Runs `server` while `body` runs, then cancels it and waits for `run()` to return.
func whileRunning<R: Sendable>(
    _ server: ControlSocketServer,
    _ body: () async throws -> R
) async throws -> R {
    try await server.bind()
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        defer { group.cancelAll() }
        let result = try await body()
        group.cancelAll()
        try await group.waitForAll()
        return result
    }
}

/// Runs `body`, which blocks the thread it runs on (a blocking socket call, say), on a thread of
/// its own: never on Swift's cooperative pool, one thread per core, which the loopback servers
/// and waits of the tests running beside need.
func onThreadOfItsOwn<R: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> R) async throws(Failure) -> R {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<R, Failure>, Never>) in
        Thread { continuation.resume(returning: Result(catching: body)) }.start()
    }
    return try result.get()
}

func posixError(_ code: Int32) -> POSIXError {
    POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
}

/// A plain non-blocking Unix socket client, so that tests control exactly what is written
/// and read (or not read) without ever blocking a cooperative thread.
final class RawClient: @unchecked Sendable {
    let fd: Int32
    private var received: [UInt8] = []
    private var sawEOF = false

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw posixError(errno) }
        let result = UnixSocketPath.withSocketAddress(path) { connect(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw posixError(code)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { Glibc.close(fd) }

    /// Writes every byte, waiting (without blocking a thread) while the socket is full.
    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) async throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
            } else if errno == EAGAIN || errno == EINTR {
                try await Task.sleep(for: .milliseconds(1))
            } else {
                throw posixError(errno)
            }
        }
    }

    /// The next line without its `\n`, nil at end of stream; throws after `timeout`.
    func readLine(timeout: Duration = .seconds(10)) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = received.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: received[..<newline], as: UTF8.self)
                received.removeSubrange(...newline)
                return line
            }
            if sawEOF { return nil }
            if !pump() {
                guard ContinuousClock.now < deadline else {
                    throw TestTimeout(description: "no line within \(timeout)")
                }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    /// True if nothing at all arrives within `window` (end of stream counts as something).
    func staysSilent(for window: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + window
        while ContinuousClock.now < deadline {
            _ = pump()
            if !received.isEmpty || sawEOF { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads what is available; false when nothing was.
    private func pump() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            received.append(contentsOf: chunk[..<count])
            return true
        }
        if count == 0 || errno == ECONNRESET {
            sawEOF = true
            return true
        }
        return false
    }
}

/// The one line of the configuration error `body` throws, nil when it throws none.
func configurationError<T>(_ body: () throws(ConfigurationError) -> T) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.description
    }
}

/// Whether `body` returns within `limit`; on time out it is cancelled (and must then return).
func finishes(within limit: Duration, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    await withTaskGroup(of: Bool.self) { race in
        race.addTask {
            await body()
            return true
        }
        race.addTask {
            try? await Task.sleep(for: limit)
            return false
        }
        let first = await race.next() ?? false
        race.cancelAll()
        return first
    }
}

/// Runs `body` with a loopback service started by `start` and a client of `configuration`, and
/// stops both however `body` ends.
func withLoopbackService<Service: Sendable>(
    _ start: () async throws -> Service, stop: (Service) async -> Void,
    client configuration: CurlHTTPClient.Configuration = .init(connectTimeout: .seconds(2), totalTimeout: .seconds(5), userAgent: "beaconctl/test"),
    _ body: (Service, CurlHTTPClient) async throws -> Void
) async throws {
    let service = try await start()
    let client = CurlHTTPClient(configuration: configuration)
    do {
        try await body(service, client)
    } catch {
        await client.shutdown()
        await stop(service)
        throw error
    }
    await client.shutdown()
    await stop(service)
}

/// Audit records made by hand for the audit's own suites: a step of the impression of ad `a` in
/// ad break `p` of session `s1` unless told otherwise, its id derived from what it is about.
enum AuditSample {
    static let t0 = Fixture.t0

    static func record(
        _ kind: AuditRecord.Kind, at: Milliseconds = t0, session: String? = "s1", adBreak: String? = "p", ad: String? = "a",
        event: TrackingEventType? = .impression, id: String? = nil
    ) -> AuditRecord {
        let subject = AuditSubject(sessionID: session, adBreakID: adBreak, adID: ad, event: event)
        let parts = [session ?? "-", adBreak ?? "-", ad ?? "-", event?.rawValue ?? "-", String(at)]
        return AuditRecord(id: id ?? AuditRecordID.of(kind, parts), kind: kind, at: at, subject: subject)
    }

    /// One ended request to `host`: answered `status`, or failed with `error`.
    static func attempt(
        _ number: Int = 1, status: Int? = nil, error: String? = nil, host: String = "t.example", at: Milliseconds = t0,
        session: String? = "s1", adBreak: String? = "p", ad: String? = "a", event: TrackingEventType? = .impression
    ) -> AuditRecord {
        var record = record(.attempt, at: at, session: session, adBreak: adBreak, ad: ad, event: event, id: nil)
        record.id = AuditRecordID.of(.attempt, [session ?? "-", adBreak ?? "-", ad ?? "-", event?.rawValue ?? "-", host, String(number)])
        record.attempt = number
        record.urlHost = host
        record.httpStatus = status
        record.error = error
        return record
    }

    /// The JSON bytes the audit counts for `records`.
    static func bytes(_ records: [AuditRecord]) -> Int {
        records.reduce(0) { $0 + $1.jsonLine.utf8.count }
    }
}
