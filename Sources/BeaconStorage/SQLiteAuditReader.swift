import BeaconDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the audit from the journal file on a connection of its own that never writes: for
/// `beaconctl audit` (while the daemon runs or not) and for the telemetry reporter, whose reads
/// then never wait for, or hold up, the daemon's commits (write-ahead logging lets readers and the
/// writer go on side by side).
package final class SQLiteAuditReader {
    /// What the audit holds, for status.
    package struct Summary: Sendable, Equatable {
        package var records = 0
        package var bytes = 0
        package var dropped = 0
        package var droppedUnexported = 0
        package var exportedThrough: Int64 = 0
    }

    package let path: String
    private let database: SQLiteDatabase

    /// Opens `journal.sqlite` in `directory`; fails when there is none.
    package init(directory: String) throws(JournalError) {
        let path = directory.hasSuffix("/") ? directory + JournalFile.name : directory + "/" + JournalFile.name
        do {
            database = try SQLiteDatabase(path: path, create: false, readOnly: true)
            database.setBusyTimeout(milliseconds: 5000)
        } catch {
            throw JournalError(reason: "cannot read the audit in \(path): \(error)")
        }
        self.path = path
    }

    /// The records `query` asks for, oldest first.
    package func records(_ query: AuditQuery) throws(JournalError) -> [AuditEntry] {
        // The indexed filters narrow the rows; the query decides on each record.
        let entries = try read("reading the audit") { () throws(SQLiteError) in
            try database.withStatement(Self.selectRecords) { statement throws(SQLiteError) in
                try statement.bind(query.since ?? Int64.min, at: 1)
                try statement.bind(query.sessionID, at: 2)
                return try Self.entries(from: statement)
            }
        }
        return query.select(entries)
    }

    /// The records after `sequence`, oldest first, at most `limit`: what the exporter sends next.
    package func entries(after sequence: Int64, limit: Int) throws(JournalError) -> [AuditEntry] {
        try read("reading the audit to export") { () throws(SQLiteError) in
            try database.withStatement(Self.selectAfter) { statement throws(SQLiteError) in
                try statement.bind(sequence, at: 1)
                try statement.bind(limit, at: 2)
                return try Self.entries(from: statement)
            }
        }
    }

    package func summary() throws(JournalError) -> Summary {
        try read("reading the audit's size") { () throws(SQLiteError) in
            var summary = Summary()
            try database.withStatement(Self.selectSummary) { row throws(SQLiteError) in
                guard try row.step() else { return }
                summary.records = row.int(at: 0)
                summary.bytes = row.int(at: 1)
            }
            try database.withStatement(Self.selectState) { row throws(SQLiteError) in
                guard try row.step() else { return }
                summary.exportedThrough = row.int64(at: 0)
                summary.dropped = row.int(at: 1)
                summary.droppedUnexported = row.int(at: 2)
            }
            return summary
        }
    }

    private static func entries(from statement: SQLiteStatement) throws(SQLiteError) -> [AuditEntry] {
        var entries: [AuditEntry] = []
        while try statement.step() {
            // A row this release cannot read (written by a newer one) is left out, not fatal.
            guard let record = AuditRecord(jsonLine: Array(statement.text(at: 1).utf8)) else { continue }
            entries.append(AuditEntry(sequence: statement.int64(at: 0), record: record))
        }
        return entries
    }

    private func read<Result>(_ operation: String, _ body: () throws(SQLiteError) -> Result) throws(JournalError) -> Result {
        do {
            return try body()
        } catch {
            throw JournalError(reason: "\(operation) in \(path): \(error)")
        }
    }

    private static let selectRecords = """
        SELECT seq, record FROM audit WHERE at >= ?1 AND (?2 IS NULL OR session_id = ?2) ORDER BY seq
        """
    private static let selectAfter = "SELECT seq, record FROM audit WHERE seq > ?1 ORDER BY seq LIMIT ?2"
    private static let selectSummary = "SELECT COUNT(*), COALESCE(SUM(LENGTH(CAST(record AS BLOB))), 0) FROM audit"
    private static let selectState = "SELECT exported_through, dropped, dropped_unexported FROM audit_state"
}
