import BeaconDomain
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The one daemon of a state directory: an exclusive `flock` on `daemon.lock` in it, held for the
/// rest of the process's life.
///
/// Two daemons on one journal would each send the other's due deliveries. The kernel drops the
/// lock when the process ends, however it ends, so a kill -9 leaves no stale lock. The file holds
/// the holder's PID, for the message of the daemon refused.
package final class StateDirectoryLock: Sendable {
    package static let fileName = "daemon.lock"
    /// `EX_CANTCREAT` (sysexits.h): the exit status of a daemon whose state directory is taken.
    package static let exitStatus: Int32 = 73

    package let directory: String
    /// The locked file's descriptor, once locked; never closed, so the lock lasts as long as the process.
    private let descriptor = Mutex<Int32?>(nil)

    package init(directory: String) {
        self.directory = directory
    }

    package var path: String { directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName }

    /// Takes the lock, creating the directory (0700) and the file (0600) when missing; does nothing
    /// once this process holds it.
    package func acquire() throws(StateDirectoryLockError) {
        try descriptor.withLock { (held: inout Int32?) throws(StateDirectoryLockError) in
            guard held == nil else { return }
            held = try lock()
        }
    }

    private func lock() throws(StateDirectoryLockError) -> Int32 {
        do {
            try JournalFile.makeDirectory(directory)
        } catch {
            throw StateDirectoryLockError(directory: directory, kind: .unavailable(error.reason))
        }
        let file = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw failure("cannot open \(Self.fileName)") }
        guard flock(file, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            defer { close(file) }
            guard code == EWOULDBLOCK else { throw failure("cannot lock \(Self.fileName)", code: code) }
            throw StateDirectoryLockError(directory: directory, kind: .held(by: Self.holder(in: file)))
        }
        let text = Array("\(getpid())\n".utf8)
        // The PID only names the holder in a message: the lock holds whether or not it is written.
        if ftruncate(file, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(file, $0.baseAddress, $0.count, 0) }
        }
        return file
    }

    private func failure(_ what: String, code: Int32 = errno) -> StateDirectoryLockError {
        StateDirectoryLockError(directory: directory, kind: .unavailable("\(what): \(String(cString: strerror(code)))"))
    }

    /// The PID written in the lock file by its holder; nil before it wrote it.
    private static func holder(in file: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).filter { !$0.isWhitespace })
    }
}
