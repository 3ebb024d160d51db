import BeaconDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the journal lives on disk, made private to its owner before SQLite opens it.
///
/// The journal holds session URLs, which may carry tokens: the directory is made 0700 and the
/// file 0600 (SQLite would make it 0644, and gives its `-wal` and `-shm` files the database
/// file's mode).
enum JournalFile {
    static let name = "journal.sqlite"

    /// The journal file in `directory`, after creating what is missing of both.
    static func prepare(directory: String) throws(JournalError) -> String {
        try makeDirectory(directory)
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        let code = errno
        if descriptor >= 0 {
            close(descriptor)
        } else if code != EEXIST {
            throw JournalError(reason: "the journal directory \(directory) is not writable: cannot create \(name): \(errorText(code))")
        }
        return path
    }

    /// Creates `directory` and its missing parents, each 0700.
    static func makeDirectory(_ directory: String) throws(JournalError) {
        guard !directory.isEmpty else { throw JournalError(reason: "no journal directory given") }
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component
            defer { prefix += "/" }
            guard mkdir(prefix, 0o700) != 0 else { continue }
            let code = errno
            guard code != EEXIST else { continue }
            let failed = prefix == directory ? "" : "\(prefix): "
            throw JournalError(reason: "cannot create the journal directory \(directory): \(failed)\(errorText(code))")
        }
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw JournalError(reason: "the journal directory \(directory) is not a directory")
        }
    }

    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
