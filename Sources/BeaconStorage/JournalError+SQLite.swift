import BeaconDomain
extension JournalError {
    /// What went wrong in words an operator can act on, then SQLite's own message and code.
    init(_ error: SQLiteError, while operation: String, file: String, directory: String) {
        let what =
            switch error.kind {
            case .notWritable: "the journal directory \(directory) is not writable"
            case .diskFull: "disk full"
            case .corrupt: "\(file) is corrupt"
            case .notADatabase: "\(file) is not a database"
            case .busy: "\(file) is busy: another process holds its lock"
            case .io: "I/O error on \(file)"
            case .mismatch: "\(file) holds a value this version does not read"
            case .other: "SQLite failed on \(file)"
            }
        self.init(reason: "\(operation): \(what) (SQLite: \(error.message), code \(error.code))")
    }
}
