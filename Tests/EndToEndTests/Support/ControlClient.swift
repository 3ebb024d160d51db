import Foundation
import Synchronization

/// One plain connection to a control socket that a test drives by hand: it writes what it
/// likes when it likes, and looks at what came back without waiting. Connecting and writing
/// block (20 s at most), so they run on a thread of their own, off the cooperative pool.
final class ControlClient: Sendable {
    let fd: Int32
    private let received = Mutex<(bytes: [UInt8], closed: Bool)>(([], false))

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit { close(fd) }

    /// Connects `count` clients to `path`, in order.
    static func connect(path: String, count: Int = 1) async throws -> [ControlClient] {
        try await onThread {
            var clients: [ControlClient] = []
            for _ in 0..<count { clients.append(ControlClient(fd: try RawSocketConnection.connected(path: path))) }
            return clients
        }
    }

    /// Writes every byte, waiting while the daemon does not read.
    func send(_ bytes: [UInt8]) async throws {
        try await Self.onThread { try RawSocketConnection.write(bytes, to: self.fd) }
    }

    func send(line: String) async throws {
        try await send(Array((line + "\n").utf8))
    }

    /// Writes from the calling thread: for a test's own writer thread.
    func sendBlocking(_ bytes: [UInt8]) throws {
        try RawSocketConnection.write(bytes, to: fd)
    }

    /// The lines received so far, and whether the daemon closed the connection; never waits.
    func poll() -> (lines: [String], closed: Bool) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        return received.withLock { state in
            while !state.closed {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count > 0 {
                    state.bytes.append(contentsOf: chunk[..<count])
                } else if count == 0 || (count < 0 && errno == ECONNRESET) {
                    state.closed = true
                } else if errno != EINTR {
                    break
                }
            }
            let complete = state.bytes.lastIndex(of: UInt8(ascii: "\n")).map { state.bytes[...$0] } ?? []
            return (String(decoding: complete, as: UTF8.self).split(separator: "\n").map(String.init), state.closed)
        }
    }

    /// Waits until `count` lines came; throws after `timeout`.
    func lines(_ count: Int, timeout: Duration = .seconds(10)) async throws -> [String] {
        try await eventuallyValue(timeout: timeout, "\(count) lines on the control socket (got \(poll().lines))") {
            let lines = poll().lines
            return lines.count >= count ? Array(lines.prefix(count)) : nil
        }
    }

    /// Ends both directions, waking a thread blocked writing to this connection.
    func hangUp() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
