import BeaconDomain
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Per-box state in the state directory, one file per value, each replaced atomically (written
/// beside, synced, renamed): `installation-id`, `privacy-status` and
/// `media-analytics-backlog.json`. A file missing, unreadable or not holding a valid value reads
/// as absent: a new installation id is made, no privacy status was said, no backlog is sent.
package final class ReporterStateFiles: ReporterStateStore {
    package static let installationIDFile = "installation-id"
    package static let privacyStatusFile = "privacy-status"
    package static let mediaAnalyticsBacklogFile = "media-analytics-backlog.json"
    /// Neither value needs more; a bigger file is not ours.
    static let maxBytes = 64
    /// A full media-analytics queue (1000 events of a few hundred bytes) and room to spare.
    static let maxBacklogBytes = 4 << 20

    private let directory: String
    private let id: String
    private let privacy: Mutex<PrivacyStatus?>

    /// Reads the directory's files; makes and writes the installation id when there is none.
    /// - Parameter problem: set when the new installation id cannot be written; the
    ///   store keeps the id in memory, so it is not the same after a restart.
    package init(directory: String, using random: inout some RandomNumberGenerator, problem: inout ReporterStateError?) {
        self.directory = directory
        let stored = Self.contents(of: Self.installationIDFile, in: directory)
        if let stored, InstallationID.isValid(stored) {
            id = stored
        } else {
            id = InstallationID.make(using: &random)
            do throws(ReporterStateError) {
                try Self.replace(Self.installationIDFile, in: directory, with: id)
            } catch {
                problem = error
            }
        }
        privacy = Mutex(Self.contents(of: Self.privacyStatusFile, in: directory).flatMap(PrivacyStatus.init(rawValue:)))
    }

    package func installationID() -> String { id }

    package func privacyStatus() -> PrivacyStatus? { privacy.withLock { $0 } }

    package func setPrivacyStatus(_ status: PrivacyStatus) throws(ReporterStateError) {
        // Under the lock: two changes in a row reach the file in the order they were made.
        try privacy.withLock { (current: inout PrivacyStatus?) throws(ReporterStateError) in
            current = status
            try Self.replace(Self.privacyStatusFile, in: directory, with: status.rawValue)
        }
    }

    package func mediaAnalyticsBacklog() -> String? {
        Self.contents(of: Self.mediaAnalyticsBacklogFile, in: directory, maxBytes: Self.maxBacklogBytes)
    }

    package func keepMediaAnalyticsBacklog(_ text: String) throws(ReporterStateError) {
        try Self.replace(Self.mediaAnalyticsBacklogFile, in: directory, with: text)
    }

    private static func path(_ name: String, in directory: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The file's text without its line break, or nil.
    static func contents(of name: String, in directory: String, maxBytes: Int = maxBytes) -> String? {
        let file = open(path(name, in: directory), O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var bytes = [UInt8](repeating: 0, count: maxBytes + 1)
        var count = 0
        while count <= maxBytes {
            let got = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress! + count, $0.count - count) }
            guard got > 0 else { break }
            count += got
        }
        guard count > 0, count <= maxBytes else { return nil }
        return String(validating: bytes[..<count], as: UTF8.self)?.trimmingSuffix { $0.isNewline }
    }

    /// Replaces the file with `text` and a line break: a reader sees the old text or the new, never a part.
    static func replace(_ name: String, in directory: String, with text: String) throws(ReporterStateError) {
        let target = path(name, in: directory)
        let temporary = target + ".new"
        let file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw failure("cannot create \(temporary)") }
        let bytes = Array((text + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        let synced = written == bytes.count && fsync(file) == 0
        let code = errno
        close(file)
        guard synced else {
            unlink(temporary)
            throw failure("cannot write \(temporary)", code: code)
        }
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure("cannot replace \(target)", code: code)
        }
    }

    private static func failure(_ what: String, code: Int32 = errno) -> ReporterStateError {
        ReporterStateError(reason: "\(what): \(String(cString: strerror(code)))")
    }
}

extension String {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var text = Substring(self)
        while let last = text.last, predicate(last) { text = text.dropLast() }
        return String(text)
    }
}
