import BeaconDomain
internal import CSQLite

/// Why SQLite refused: its own message and extended result code.
struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad classes of failure a caller reacts to differently.
    enum Kind: Sendable, Equatable {
        /// The file or its directory cannot be written (`SQLITE_READONLY`, `SQLITE_CANTOPEN`, `SQLITE_PERM`).
        case notWritable
        /// `SQLITE_FULL`.
        case diskFull
        /// `SQLITE_CORRUPT`.
        case corrupt
        /// `SQLITE_NOTADB`: the file is something else.
        case notADatabase
        /// `SQLITE_BUSY` or `SQLITE_LOCKED`: another connection holds the lock past the busy timeout.
        case busy
        /// `SQLITE_IOERR`: a read, write or sync of the file failed.
        case io
        /// `SQLITE_MISMATCH`: a stored value that the reader does not understand.
        case mismatch
        case other
    }

    /// The extended result code (`SQLITE_IOERR_FSYNC`, ...); the primary code is its low byte.
    var code: Int32
    var message: String

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// A value read back that the reader cannot turn into its type.
    static func mismatch(_ message: String) -> Self {
        Self(code: SQLITE_MISMATCH, message: message)
    }

    var kind: Kind {
        switch code & 0xff {
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM: .notWritable
        case SQLITE_FULL: .diskFull
        case SQLITE_CORRUPT: .corrupt
        case SQLITE_NOTADB: .notADatabase
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_IOERR: .io
        case SQLITE_MISMATCH: .mismatch
        default: .other
        }
    }

    var description: String { "\(message) (SQLite code \(code))" }
}
