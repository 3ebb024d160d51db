import Foundation

/// A fresh, short directory under /tmp: a Unix socket path holds at most 107 bytes.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/bce-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let result = mkdtemp(buffer.baseAddress!) else { return nil }
            return String(cString: result)
        }
        guard let created else { throw TestFailure("mkdtemp failed: errno \(errno)") }
        path = created
    }

    deinit { remove() }

    /// Removes the directory and what it holds.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }
}
