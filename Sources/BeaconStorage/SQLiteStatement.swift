import BeaconDomain
internal import CSQLite

/// A prepared SQLite statement: bind parameters, step through rows, read columns.
///
/// Parameters and columns are numbered as SQLite numbers them: parameters from 1, columns from 0.
/// Obtained from `SQLiteDatabase.withStatement`, which resets it after each use; finalized when
/// released.
final class SQLiteStatement {
    private let handle: OpaquePointer
    /// The owning connection, for its error messages. `sqlite3_close_v2` keeps it alive for as
    /// long as a statement is not finalized, so it never dangles here.
    private let connection: OpaquePointer

    init(handle: OpaquePointer, connection: OpaquePointer) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Binding

    func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ value: Int?, at index: Int32) throws(SQLiteError) {
        try bind(value.map { Int64($0) }, at: index)
    }

    func bind(_ value: Bool, at index: Int32) throws(SQLiteError) {
        try bind(Int64(value ? 1 : 0), at: index)
    }

    func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard var value else { return try bindNull(at: index) }
        let result = value.withUTF8 { bytes in
            // An empty buffer may have no address, and a null address would bind NULL.
            guard let address = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, csqlite_transient()) }
            return sqlite3_bind_text64(handle, index, address, UInt64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
        }
        try check(result)
    }

    func bind(_ value: [UInt8]?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        let result = value.withUnsafeBytes { bytes in
            guard let address = bytes.baseAddress else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return sqlite3_bind_blob64(handle, index, address, UInt64(bytes.count), csqlite_transient())
        }
        try check(result)
    }

    func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    // MARK: Stepping

    /// Runs the statement to its next row: true when there is one to read, false when it is done.
    func step() throws(SQLiteError) -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw error(result)
        }
    }

    /// Runs a statement that returns no rows (or whose rows do not matter) to completion.
    func run() throws(SQLiteError) {
        while try step() {}
    }

    /// Makes the statement ready to run again with new parameters, ending any read it holds open.
    func reset() {
        // The error sqlite3_reset repeats is the one the failed step already threw.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Reading the current row

    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func int(at column: Int32) -> Int {
        Int(truncatingIfNeeded: int64(at: column))
    }

    func optionalInt(at column: Int32) -> Int? {
        isNull(at: column) ? nil : int(at: column)
    }

    func bool(at column: Int32) -> Bool {
        int64(at: column) != 0
    }

    func text(at column: Int32) -> String {
        // column_text before column_bytes: the byte count is of the text conversion.
        guard let characters = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeRawBufferPointer(start: characters, count: count), as: UTF8.self)
    }

    func optionalText(at column: Int32) -> String? {
        isNull(at: column) ? nil : text(at: column)
    }

    func blob(at column: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// A text column read as one of a closed set of values; anything else is a mismatch error.
    func value<Value: RawRepresentable>(at column: Int32, as type: Value.Type = Value.self) throws(SQLiteError) -> Value
    where Value.RawValue == String {
        let raw = text(at: column)
        guard let value = Value(rawValue: raw) else {
            let name = sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "\(column)"
            throw .mismatch("column \(name) holds '\(raw)', which is not a \(Value.self)")
        }
        return value
    }

    // MARK: Errors

    private func check(_ result: Int32) throws(SQLiteError) {
        guard result == SQLITE_OK else { throw error(result) }
    }

    private func error(_ result: Int32) -> SQLiteError {
        SQLiteError(code: result, message: String(cString: sqlite3_errmsg(connection)))
    }
}
