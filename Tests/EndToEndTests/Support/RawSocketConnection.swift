import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation

/// Plain connections to a control socket, below any client library: one that writes many lines,
/// half-closes and reads every reply line until the daemon closes; one that asks and never reads.
/// Blocking calls run on their own thread, off the cooperative pool.
enum RawSocketConnection {
    static func exchange(path: String, lines: [String]) async throws -> [String] {
        let payload = Array(lines.map { $0 + "\n" }.joined().utf8)
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try blockingExchange(path: path, payload: payload) })
            }.start()
        }
    }

    /// Connects to `path` and writes `lines`, leaving both sides open: a client that asked for a
    /// stream and does not read it. Close the descriptor, or read it with ``readToEnd(_:)``.
    static func open(path: String, sending lines: [String]) throws -> Int32 {
        let fd = try connected(path: path)
        do {
            try write(Array(lines.map { $0 + "\n" }.joined().utf8), to: fd)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Reads `fd` to its end (20 s at most without data), then closes it; how many bytes came.
    static func readToEnd(_ fd: Int32) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                defer { close(fd) }
                continuation.resume(with: Result { try blockingRead(fd).count })
            }.start()
        }
    }

    static func connected(path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw TestFailure("socket path too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: pathBytes)
            buffer[pathBytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw TestFailure("connect \(path): errno \(code)")
        }
        return fd
    }

    static func write(_ payload: [UInt8], to fd: Int32) throws {
        var offset = 0
        while offset < payload.count {
            let written = payload[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw TestFailure("send: errno \(errno)") }
            offset += written
        }
    }

    private static func blockingExchange(path: String, payload: [UInt8]) throws -> [String] {
        let fd = try connected(path: path)
        defer { close(fd) }
        try write(payload, to: fd)
        shutdown(fd, Int32(SHUT_WR))
        return String(decoding: try blockingRead(fd), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private static func blockingRead(_ fd: Int32) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            // A reset after the daemon closed ends the stream like a plain close.
            if count < 0 && errno == ECONNRESET { break }
            if count < 0 { throw TestFailure("recv: errno \(errno) after \(received.count) bytes") }
            if count == 0 { break }
            received.append(contentsOf: chunk[..<count])
        }
        return received
    }
}
