#if canImport(Glibc)
import Glibc
#endif

/// Writes whole lines to stdout at once, unbuffered, so a reading player sees each line when it is written.
enum StandardOutput {
    @Sendable static func writeLine(_ line: String) {
        write(fileDescriptor: STDOUT_FILENO, line + "\n")
    }

    /// Writes `text` as it is, without adding a newline.
    @Sendable static func writeText(_ text: String) {
        write(fileDescriptor: STDOUT_FILENO, text)
    }

    @Sendable static func writeError(_ line: String) {
        write(fileDescriptor: STDERR_FILENO, line + "\n")
    }

    private static func write(fileDescriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
