#if canImport(Glibc)
import Glibc
#endif

/// The box's machine id, as systemd keeps it: read only to derive the heartbeat's device id
/// (``MachineAppSpecificID``), never sent or logged as it is.
package enum MachineID {
    package static let path = "/etc/machine-id"

    /// The file's text (32 hex digits and a newline), or nil when it cannot be read; at most 64
    /// bytes are read, whatever the file holds.
    package static func text(at path: String = path) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
