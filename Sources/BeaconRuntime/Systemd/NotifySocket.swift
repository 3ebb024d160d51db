import BeaconDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The service manager's notification socket, named by `$NOTIFY_SOCKET`: the sd_notify protocol
/// without libsystemd. Each message is one datagram on an `AF_UNIX` socket; a leading `@` names
/// the abstract namespace.
package struct NotifySocket: NotifyChannel {
    /// The socket's name as `$NOTIFY_SOCKET` gives it.
    package let name: String

    /// The socket `$NOTIFY_SOCKET` names, or nil when it is unset or cannot name a socket
    /// (then the service manager did not ask for notifications).
    package init?(environment: [String: String]) {
        guard let name = environment["NOTIFY_SOCKET"], Self.addressBytes(of: name) != nil else { return nil }
        self.name = name
    }

    /// Sends `message` as one datagram. Failures are ignored: a service manager that stopped
    /// listening has nothing to be told, and the daemon's work must go on regardless.
    package func send(_ message: String) {
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let fd = socket(AF_UNIX, SOCK_DGRAM, 0)
        let flags: Int32 = 0
        #endif
        guard fd >= 0 else { return }
        defer { close(fd) }
        let payload = Array(message.utf8)
        _ = Self.withSocketAddress(of: name) { address, length in
            payload.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, flags, address, length) }
        }
    }

    /// Calls `body` with the `sockaddr_un` for a `$NOTIFY_SOCKET` value: an absolute path, or `@`
    /// and an abstract name. Nil, without calling `body`, when `name` is neither or too long.
    package static func withSocketAddress<R>(of name: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R? {
        guard let bytes = addressBytes(of: name) else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        // An abstract name is exactly its bytes long; a path is NUL-terminated by the zeroed rest.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes[0] == 0 ? 0 : 1))
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// The `sun_path` bytes without terminator: the path, or NUL and the abstract name.
    private static func addressBytes(of name: String) -> [UInt8]? {
        var bytes = Array(name.utf8)
        guard bytes.count > 1, bytes[0] == UInt8(ascii: "/") || bytes[0] == UInt8(ascii: "@"),
            bytes.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        else { return nil }
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        return bytes
    }
}
