import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The thin SQLite wrapper: values go in and come out unchanged, transactions are all or
/// nothing, and failures carry SQLite's reason and a kind. Serialized, as the journal's tests
/// are: each blocks its thread on file I/O.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SQLiteDatabaseTests {
    static func withDatabase<R>(_ body: (SQLiteDatabase) throws -> R) async throws -> R {
        try await withTemporaryDirectory { directory in
            let database = try SQLiteDatabase(path: directory + "/test.sqlite", create: true)
            try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, s TEXT, b BLOB)")
            return try body(database)
        }
    }

    static func insert(_ database: SQLiteDatabase, i: Int64?, s: String?, b: [UInt8]?) throws(SQLiteError) {
        try database.withStatement("INSERT INTO t (i, s, b) VALUES (?1, ?2, ?3)") { statement throws(SQLiteError) in
            try statement.bind(i, at: 1)
            try statement.bind(s, at: 2)
            try statement.bind(b, at: 3)
            try statement.run()
        }
    }

    struct Row: Equatable {
        var i: Int64?
        var s: String?
        var b: [UInt8]?
    }

    static func rows(_ database: SQLiteDatabase) throws(SQLiteError) -> [Row] {
        try database.withStatement("SELECT i, s, b, typeof(s), typeof(b) FROM t ORDER BY id") { statement throws(SQLiteError) in
            var rows: [Row] = []
            while try statement.step() {
                rows.append(
                    Row(
                        i: statement.isNull(at: 0) ? nil : statement.int64(at: 0), s: statement.optionalText(at: 1),
                        b: statement.isNull(at: 2) ? nil : statement.blob(at: 2)))
                // Empty text and blobs stay text and blobs, never NULL.
                #expect(statement.text(at: 3) == (rows.last?.s == nil ? "null" : "text"))
                #expect(statement.text(at: 4) == (rows.last?.b == nil ? "null" : "blob"))
            }
            return rows
        }
    }

    @Test func valuesRoundTripIncludingEmptyNullAndEmbeddedZeroes() async throws {
        try await Self.withDatabase { database in
            let written = [
                Row(i: .min, s: "", b: []),
                Row(i: .max, s: "a\u{0}b ü 🎬", b: [0, 1, 255, 0]),
                Row(i: nil, s: nil, b: nil),
                Row(i: 0, s: String(repeating: "x", count: 100_000), b: Array(repeating: 7, count: 100_000)),
            ]
            for row in written { try Self.insert(database, i: row.i, s: row.s, b: row.b) }
            #expect(try Self.rows(database) == written)
        }
    }

    @Test func aCachedStatementForgetsTheBindingsOfItsLastUse() async throws {
        try await Self.withDatabase { database in
            try Self.insert(database, i: 1, s: "one", b: [1])
            try database.withStatement("INSERT INTO t (i, s, b) VALUES (?1, ?2, ?3)") { statement throws(SQLiteError) in
                try statement.bind(Int64(2), at: 1)
                try statement.run()
            }
            #expect(try Self.rows(database) == [Row(i: 1, s: "one", b: [1]), Row(i: 2, s: nil, b: nil)])
        }
    }

    @Test func aTransactionThatThrowsLeavesNothingBehind() async throws {
        try await Self.withDatabase { database in
            try database.execute("CREATE UNIQUE INDEX t_i ON t (i)")
            try Self.insert(database, i: 1, s: "kept", b: nil)
            let error = try #require(throws: SQLiteError.self) {
                try database.transaction { () throws(SQLiteError) in
                    try Self.insert(database, i: 2, s: "rolled back", b: nil)
                    try Self.insert(database, i: 1, s: "duplicate", b: nil)
                }
            }
            #expect(error.message.contains("UNIQUE constraint failed"), "\(error)")
            #expect(error.kind == .other)
            #expect(try Self.rows(database) == [Row(i: 1, s: "kept", b: nil)])
            // And the connection is usable again: no transaction was left open.
            try database.transaction { () throws(SQLiteError) in try Self.insert(database, i: 3, s: "after", b: nil) }
            #expect(try Self.rows(database).count == 2)
        }
    }

    @Test func aCommittedTransactionIsOnDiskForAnotherConnection() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/test.sqlite"
            let writer = try SQLiteDatabase(path: path, create: true)
            try writer.execute("CREATE TABLE t (i INTEGER)")
            let reader = try SQLiteDatabase(path: path, create: false)
            func count() throws(SQLiteError) -> Int64 {
                try reader.withStatement("SELECT count(*) FROM t") { statement throws(SQLiteError) in
                    _ = try statement.step()
                    return statement.int64(at: 0)
                }
            }
            // Twice: BEGIN and COMMIT are cached statements, run again once reset.
            for expected in [Int64(1), 2] {
                try writer.transaction { () throws(SQLiteError) in try writer.execute("INSERT INTO t VALUES (1)") }
                let rows = try count()
                #expect(rows == expected)
            }
        }
    }

    @Test func aCachedStatementIsFoundByItsWholeText() async throws {
        try await Self.withDatabase { database in
            func value(_ sql: String) throws(SQLiteError) -> Int64 {
                try database.withStatement(sql) { statement throws(SQLiteError) in
                    _ = try statement.step()
                    return statement.int64(at: 0)
                }
            }
            // One text a prefix of the other, and one built at run time: equal texts, not equal storage, find the same.
            let built = ["SELECT", "1"].joined(separator: " ")
            let values = [try value("SELECT 1"), try value("SELECT 1 + 1"), try value(built), try value("SELECT 1 + 1")]
            #expect(values == [1, 2, 1, 2])
        }
    }

    @Test func aFullDatabaseIsDiskFullWithItsReason() async throws {
        try await Self.withDatabase { database in
            // The page limit stands in for a full disk: SQLite reports both as SQLITE_FULL.
            try database.execute("PRAGMA max_page_count = 2")
            let error = try #require(throws: SQLiteError.self) {
                try Self.insert(database, i: 1, s: String(repeating: "x", count: 100_000), b: nil)
            }
            #expect(error.kind == .diskFull, "\(error)")
            let journalError = JournalError(error, while: "saving 1 deliveries", file: "/state/journal.sqlite", directory: "/state")
            #expect(journalError.reason.hasPrefix("saving 1 deliveries: disk full (SQLite: database or disk is full, code 13)"), "\(journalError)")
        }
    }

    @Test func aLockedDatabaseIsBusy() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/test.sqlite"
            let holder = try SQLiteDatabase(path: path, create: true)
            try holder.execute("CREATE TABLE t (i INTEGER); BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
            let waiter = try SQLiteDatabase(path: path, create: false)
            let error = try #require(throws: SQLiteError.self) { try waiter.execute("INSERT INTO t VALUES (2)") }
            #expect(error.kind == .busy, "\(error)")
        }
    }

    @Test func aMissingFileIsNotCreatedUnlessAsked() async throws {
        try await withTemporaryDirectory { directory in
            let error = try #require(throws: SQLiteError.self) { try SQLiteDatabase(path: directory + "/missing.sqlite", create: false) }
            #expect(error.kind == .notWritable, "\(error)")
            #expect(error.message.contains("unable to open"), "\(error)")
        }
    }

    @Test func aTextOutsideItsClosedSetIsAMismatch() async throws {
        try await Self.withDatabase { database in
            try Self.insert(database, i: nil, s: "paused", b: nil)
            let error = try #require(throws: SQLiteError.self) {
                try database.withStatement("SELECT s AS state FROM t") { statement throws(SQLiteError) in
                    _ = try statement.step()
                    return try statement.value(at: 0, as: BeaconDelivery.State.self)
                }
            }
            #expect(error.kind == .mismatch)
            #expect(error.message == "column state holds 'paused', which is not a State", "\(error)")
        }
    }
}
