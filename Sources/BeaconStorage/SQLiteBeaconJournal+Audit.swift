import BeaconDomain

/// The audit's rows, written inside the journal's transactions and kept within their bounds.
extension SQLiteBeaconJournal {
    /// Inserts the records not kept yet; returns the bytes added. Runs inside the caller's transaction.
    func insert(_ records: [AuditRecord]) throws(SQLiteError) -> Int {
        var added = 0
        for record in records {
            let json = record.jsonLine
            try database.withStatement(Self.insertAudit) { statement throws(SQLiteError) in
                try statement.bind(record.id, at: 1)
                try statement.bind(record.at, at: 2)
                try statement.bind(record.kind.rawValue, at: 3)
                try statement.bind(record.outcome?.rawValue, at: 4)
                try statement.bind(record.subject.sessionID, at: 5)
                try statement.bind(record.subject.adBreakID, at: 6)
                try statement.bind(record.subject.adID, at: 7)
                try statement.bind(record.subject.event?.rawValue, at: 8)
                try statement.bind(json, at: 9)
                try statement.run()
            }
            if database.changes == 1 { added += json.utf8.count }
        }
        return added
    }

    /// Drops the oldest rows while any is older than the max age at `wallNow` or the rows' bytes pass
    /// the max, counting them (and those never exported). Runs inside the caller's transaction.
    func trimAudit(bytes: Int, wallNow: Milliseconds) throws(SQLiteError) -> Int {
        var bytes = bytes
        var last: Int64?
        var dropped = 0
        var droppedUnexported = 0
        let exportedThrough = try database.withStatement(Self.selectAuditState) { row throws(SQLiteError) in
            try row.step() ? row.int64(at: 0) : 0
        }
        let cutoff = wallNow - auditBounds.maxAge
        try database.withStatement(Self.selectOldestAudit) { row throws(SQLiteError) in
            while try row.step() {
                let (sequence, at, size) = (row.int64(at: 0), row.int64(at: 1), row.int(at: 2))
                guard at < cutoff || bytes > auditBounds.maxBytes else { break }
                bytes -= size
                last = sequence
                dropped += 1
                if sequence > exportedThrough { droppedUnexported += 1 }
            }
        }
        guard let last else { return bytes }
        try database.withStatement(Self.deleteAudit) { statement throws(SQLiteError) in
            try statement.bind(last, at: 1)
            try statement.run()
        }
        try database.withStatement(Self.countDropped) { statement throws(SQLiteError) in
            try statement.bind(dropped, at: 1)
            try statement.bind(droppedUnexported, at: 2)
            try statement.run()
        }
        return bytes
    }

    /// The bytes of the audit's rows, read once at open.
    static func auditBytes(_ database: SQLiteDatabase) throws(SQLiteError) -> Int {
        try database.withStatement("SELECT COALESCE(SUM(LENGTH(CAST(record AS BLOB))), 0) FROM audit") { row throws(SQLiteError) in
            try row.step() ? row.int(at: 0) : 0
        }
    }

    /// Moves the export mark. Runs inside the caller's transaction.
    func markExported(through sequence: Int64) throws(SQLiteError) {
        try database.withStatement(Self.updateExported) { statement throws(SQLiteError) in
            try statement.bind(sequence, at: 1)
            try statement.run()
        }
    }

    private static let insertAudit = """
        INSERT INTO audit (id, at, kind, outcome, session_id, ad_break_id, ad_id, event, record)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (id) DO NOTHING
        """
    private static let selectAuditState = "SELECT exported_through FROM audit_state"
    private static let selectOldestAudit = "SELECT seq, at, LENGTH(CAST(record AS BLOB)) FROM audit ORDER BY seq"
    private static let deleteAudit = "DELETE FROM audit WHERE seq <= ?1"
    private static let countDropped = """
        UPDATE audit_state SET dropped = dropped + ?1, dropped_unexported = dropped_unexported + ?2
        """
    private static let updateExported = "UPDATE audit_state SET exported_through = MAX(exported_through, ?1)"
}
