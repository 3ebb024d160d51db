import BeaconDomain
internal import CSQLite

/// One SQLite connection, with its prepared statements cached by SQL text.
///
/// This file and `SQLiteStatement` are the only users of the SQLite C API; no pointer of it
/// leaves them. Not thread-safe (opened without SQLite's mutexes): one owner uses it.
final class SQLiteDatabase {
    private let connection: OpaquePointer
    /// Found by comparing the text: callers pass the same constants, and two copies of one string
    /// compare by their storage alone, where hashing a delivery's upsert text cost more than its binding.
    private var statements: [(sql: String, statement: SQLiteStatement)] = []

    /// Opens the database file at `path` for reading and writing, or only reading; `create` makes
    /// it when missing.
    init(path: String, create: Bool, readOnly: Bool = false) throws(SQLiteError) {
        var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        var opened: OpaquePointer?
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        // Even a failed open allocates a handle (unless memory ran out): it carries the message.
        guard let opened else { throw SQLiteError(code: result, message: "out of memory opening \(path)") }
        guard result == SQLITE_OK else {
            let error = SQLiteError(code: sqlite3_extended_errcode(opened), message: String(cString: sqlite3_errmsg(opened)))
            sqlite3_close_v2(opened)
            throw error
        }
        connection = opened
    }

    deinit {
        // Statements first: released here, each finalizes itself.
        statements.removeAll()
        sqlite3_close_v2(connection)
    }

    /// How long a statement waits for another connection's lock before failing with busy.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(connection, milliseconds)
    }

    /// Runs one or more statements that take no parameters; any rows they return are dropped.
    func execute(_ sql: String) throws(SQLiteError) {
        guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else { throw lastError() }
    }

    /// How many rows the last finished INSERT, UPDATE or DELETE changed.
    var changes: Int {
        Int(sqlite3_changes(connection))
    }

    /// Hands `body` the prepared statement for `sql` (prepared once, then reused), and resets it
    /// afterwards so that it holds no read open and no parameter of this use.
    func withStatement<Result>(
        _ sql: String, _ body: (SQLiteStatement) throws(SQLiteError) -> Result
    ) throws(SQLiteError) -> Result {
        let statement = try prepared(sql)
        defer { statement.reset() }
        return try body(statement)
    }

    /// Runs `body` in one write transaction: committed when it returns, rolled back when it or
    /// the commit throws.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock up front, so a busy database fails here rather
    /// than halfway through.
    func transaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        // Prepared once like every statement: a group commit runs these two for a handful of rows.
        try withStatement("BEGIN IMMEDIATE") { statement throws(SQLiteError) in try statement.run() }
        do {
            let result = try body()
            try withStatement("COMMIT") { statement throws(SQLiteError) in try statement.run() }
            return result
        } catch {
            // Some errors (disk full, I/O) already rolled it back.
            if sqlite3_get_autocommit(connection) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements.first(where: { $0.sql == sql }) { return cached.statement }
        var handle: OpaquePointer?
        let result = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard result == SQLITE_OK else { throw lastError() }
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "no statement in: \(sql)") }
        let statement = SQLiteStatement(handle: handle, connection: connection)
        statements.append((sql, statement))
        return statement
    }

    private func lastError() -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)))
    }
}
