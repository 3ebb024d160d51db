#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconDomain
import BeaconRuntime
import Synchronization

/// The receiving end of systemd's notification socket, for tests: datagrams sent to
/// ``notifySocket`` (a path, or `@name` in the abstract namespace) are collected as messages.
package final class SimulatedServiceManager: Sendable {
    /// The value for `$NOTIFY_SOCKET`.
    package let notifySocket: String
    private let descriptor: Int32
    private let received = Mutex<[String]>([])

    /// Binds a datagram socket named `notifySocket`; a path must not exist yet.
    package init(notifySocket: String) throws(SimulatedServiceManagerError) {
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_DGRAM, 0)
        #endif
        guard fd >= 0 else { throw SimulatedServiceManagerError(errno: errno) }
        let bound = NotifySocket.withSocketAddress(of: notifySocket) { address, length in bind(fd, address, length) }
        guard bound == 0 else {
            let code = bound == nil ? EINVAL : errno
            close(fd)
            throw SimulatedServiceManagerError(errno: code)
        }
        self.notifySocket = notifySocket
        self.descriptor = fd
    }

    deinit {
        close(descriptor)
        if notifySocket.hasPrefix("/") { unlink(notifySocket) }
    }

    /// Every message received so far, oldest first, one per datagram.
    package func messages() -> [String] {
        received.withLock { received in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                guard count >= 0 else { break }
                received.append(String(decoding: buffer[..<count], as: UTF8.self))
            }
            return received
        }
    }

    /// Every `KEY=value` assignment received so far, in order, split out of the messages.
    package func assignments() -> [String] {
        messages().flatMap { $0.split(separator: "\n").map(String.init) }
    }
}

/// The notification socket could not be bound.
package struct SimulatedServiceManagerError: Error, Sendable {
    package var errno: Int32
}
