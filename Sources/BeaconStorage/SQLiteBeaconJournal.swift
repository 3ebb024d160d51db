import BeaconDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The beacon journal in one SQLite file, `journal.sqlite` in the state directory.
///
/// Every commit is on disk before `save` returns, across a power cut too: write-ahead logging
/// with `synchronous=FULL` syncs the log at each commit. So a delivery saved as due is on disk
/// before its request leaves, and one saved as delivered is before status says done.
///
/// The file does not grow without bound over weeks of live TV: SQLite reuses the pages that
/// `prune` frees, `auto_vacuum=INCREMENTAL` (set before the first table) lets `prune` hand the
/// free pages at the end back to the file system, and `prune` then truncates the log. Vacuuming
/// there rather than at every commit (`auto_vacuum=FULL`) keeps `save` as cheap as it can be,
/// and a full `VACUUM` would rewrite the whole file while holding the lock.
///
/// Times are instants of ``BootClock``, kept with their wall-clock times and the boot's id: within
/// one boot a restart resumes every schedule exactly, whatever the wall clock did; the first open
/// after a reboot moves the rows of the earlier boot to this one's clock (``JournalSchema/rebaseDeliveries``).
public final class SQLiteBeaconJournal: BeaconJournal {
    /// The journal file.
    package let path: String
    private let directory: String
    let database: SQLiteDatabase
    private let time: TimeSource
    /// How much audit the file keeps (see ``AuditBounds``).
    let auditBounds: AuditBounds
    /// The audit rows' bytes, kept as rows come and go.
    private var auditBytes: Int
    private let decoder = JSONDecoder()
    /// The row of each unfinished delivery saved through this connection: a delivery changes state
    /// two or three times, and updating its row by id costs about half of finding it by its
    /// seven-column key. A finished one is dropped, so the map holds only what is still moving.
    private var rowIDs: [BeaconDelivery.Key: Int64] = [:]

    /// Opens the journal in `directory`, creating the directory (0700) and the file (0600) when
    /// missing, and its tables in a new file. `beaconMaxAge` bounds the age given to a due delivery
    /// of an earlier boot, so that it gets at least one attempt (the default max age without one).
    public convenience init(directory: String, time: TimeSource, beaconMaxAge: Milliseconds? = nil) throws(JournalError) {
        try self.init(directory: directory, time: time, beaconMaxAge: beaconMaxAge ?? RetryPolicy().maxAge, busyTimeoutMilliseconds: 5000)
    }

    /// With the audit's bounds given (the settings'), as the daemon opens it.
    package convenience init(directory: String, time: TimeSource, beaconMaxAge: Milliseconds, auditBounds: AuditBounds) throws(JournalError) {
        try self.init(directory: directory, time: time, beaconMaxAge: beaconMaxAge, busyTimeoutMilliseconds: 5000, auditBounds: auditBounds)
    }

    /// `busyTimeoutMilliseconds`: how long a statement waits for a lock another process holds
    /// before failing as busy.
    init(
        directory: String, time: TimeSource, beaconMaxAge: Milliseconds = RetryPolicy().maxAge, busyTimeoutMilliseconds: Int32,
        auditBounds: AuditBounds = .standard
    ) throws(JournalError) {
        let path = try JournalFile.prepare(directory: directory)
        let (database, journalMode, version) = try Self.perform("opening the journal", file: path, directory: directory) {
            () throws(SQLiteError) in
            let database = try SQLiteDatabase(path: path, create: false)
            database.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            // Decides the file layout, so it must come before the first table (and before the
            // switch to WAL, which writes the first page); on an existing file it changes nothing.
            try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
            // Cannot be changed inside a transaction.
            let journalMode = try database.withStatement("PRAGMA journal_mode = WAL") { row throws(SQLiteError) in
                try row.step() ? row.text(at: 0) : ""
            }
            try database.execute("PRAGMA synchronous = FULL")
            let version = try database.withStatement("PRAGMA user_version") { row throws(SQLiteError) in
                try row.step() ? row.int64(at: 0) : 0
            }
            return (database, journalMode, version)
        }
        guard journalMode == "wal" else {
            throw JournalError(reason: "opening the journal: \(path) cannot use write-ahead logging (journal mode \(journalMode))")
        }
        guard (0...JournalSchema.version).contains(version) else {
            throw JournalError(
                reason: "opening the journal: \(path) has schema version \(version), and this beaconctl reads version "
                    + "\(JournalSchema.version) at most: it was written by a newer release")
        }
        if version < JournalSchema.version {
            let step = version == 0 ? "creating the journal's tables" : "updating the journal's tables from version \(version)"
            try Self.perform(step, file: path, directory: directory) { () throws(SQLiteError) in
                try database.transaction { () throws(SQLiteError) in
                    try database.execute(JournalSchema.steps[version] ?? JournalSchema.creation)
                }
            }
        }
        try Self.perform("adding the journal's newer tables", file: path, directory: directory) { () throws(SQLiteError) in
            try database.execute(JournalSchema.additions)
        }
        try Self.perform("moving the journal's times to this boot's clock", file: path, directory: directory) { () throws(SQLiteError) in
            try Self.rebase(database, to: JournalClock(time), beaconMaxAge: beaconMaxAge)
        }
        let auditBytes = try Self.perform("reading the audit's size", file: path, directory: directory) { () throws(SQLiteError) in
            try Self.auditBytes(database)
        }
        self.path = path
        self.directory = directory
        self.database = database
        self.time = time
        self.auditBounds = auditBounds
        self.auditBytes = auditBytes
    }

    /// When the journal's instants are of another boot, moves them to this one's clock, in one transaction.
    private static func rebase(_ database: SQLiteDatabase, to clock: JournalClock, beaconMaxAge: Milliseconds) throws(SQLiteError) {
        try database.transaction { () throws(SQLiteError) in
            let boot = try database.withStatement(JournalSchema.selectBoot) { row throws(SQLiteError) in try row.step() ? row.text(at: 0) : "" }
            guard boot != clock.bootID else { return }
            for sql in [JournalSchema.rebaseDeliveries, JournalSchema.rebaseSessions] {
                try database.withStatement(sql) { statement throws(SQLiteError) in
                    try statement.bind(clock.instant, at: 1)
                    try statement.bind(clock.wall, at: 2)
                    if sql == JournalSchema.rebaseDeliveries { try statement.bind(beaconMaxAge, at: 3) }
                    try statement.run()
                }
            }
            try database.withStatement(JournalSchema.updateBoot) { statement throws(SQLiteError) in
                try statement.bind(clock.bootID, at: 1)
                try statement.run()
            }
        }
    }

    // MARK: BeaconJournal

    package func save(_ deliveries: [BeaconDelivery], session: SessionSnapshot?, audit: AuditChanges) throws(JournalError) {
        if let stray = deliveries.first(where: { $0.reference.adBreakID != $0.key.adBreakID }) {
            throw JournalError(
                reason: "saving deliveries: the delivery of \(stray.key.url) is keyed to pod \(stray.key.adBreakID) "
                    + "but refers to pod \(stray.reference.adBreakID)")
        }
        let json = session?.jsonBytes()
        guard !deliveries.isEmpty || session != nil || !audit.isEmpty else { return }
        // Rows inserted by this transaction are only known once it commits.
        var inserted: [BeaconDelivery.Key: Int64] = [:]
        let clock = JournalClock(time)
        var auditBytes = auditBytes
        try perform(Self.describeSave(deliveries.count, withSession: session != nil)) { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                auditBytes += try insert(audit.records)
                if let sequence = audit.exportedThrough { try markExported(through: sequence) }
                if auditBytes > auditBounds.maxBytes { auditBytes = try trimAudit(bytes: auditBytes, wallNow: clock.wall) }
                for delivery in deliveries {
                    if let row = rowIDs[delivery.key] ?? inserted[delivery.key], try update(row, to: delivery, clock: clock) { continue }
                    inserted[delivery.key] = try upsert(delivery, clock: clock)
                }
                if let session, let json {
                    try database.withStatement(Self.upsertSession) { statement throws(SQLiteError) in
                        try statement.bind(session.endpoints.sessionID ?? "", at: 1)
                        try statement.bind(session.endpoints.mediaURL, at: 2)
                        try statement.bind(session.savedAt, at: 3)
                        try statement.bind(json, at: 4)
                        try statement.bind(clock.wall(of: session.savedAt), at: 5)
                        try statement.run()
                    }
                }
            }
        }
        self.auditBytes = auditBytes
        // A finished delivery saved again anyway is found by its key.
        for delivery in deliveries {
            rowIDs[delivery.key] = delivery.state.isFinished ? nil : inserted[delivery.key] ?? rowIDs[delivery.key]
        }
    }

    /// Writes a delivery's fields into its known row; false when the row is gone.
    private func update(_ row: Int64, to delivery: BeaconDelivery, clock: JournalClock) throws(SQLiteError) -> Bool {
        try database.withStatement(Self.updateDelivery) { statement throws(SQLiteError) in
            try delivery.bindFields(to: statement, from: 1, clock: clock)
            try statement.bind(row, at: BeaconDelivery.journalFieldCount + 1)
            try statement.run()
            return database.changes == 1
        }
    }

    /// Inserts a delivery, or updates the row of its key; returns the row's id.
    private func upsert(_ delivery: BeaconDelivery, clock: JournalClock) throws(SQLiteError) -> Int64? {
        try database.withStatement(Self.upsertDelivery) { statement throws(SQLiteError) in
            try delivery.bind(to: statement, clock: clock)
            let row = try statement.step() ? statement.int64(at: 0) : nil
            try statement.run()
            return row
        }
    }

    package func unfinishedDeliveries() throws(JournalError) -> [BeaconDelivery] {
        try perform("reading the unfinished deliveries") { () throws(SQLiteError) in
            try database.withStatement(Self.selectUnfinished) { statement throws(SQLiteError) in
                try Self.deliveries(from: statement)
            }
        }
    }

    package func deliveries(ofSession sessionKey: String) throws(JournalError) -> [BeaconDelivery] {
        try perform("reading the deliveries of session \(sessionKey)") { () throws(SQLiteError) in
            try database.withStatement(Self.selectOfSession) { statement throws(SQLiteError) in
                try statement.bind(sessionKey, at: 1)
                return try Self.deliveries(from: statement)
            }
        }
    }

    /// When `sessionID` is nil or empty (no `sessid`), only the media URL is matched; when it is
    /// given, only the session id is: another session of the same stream is not this one.
    package func session(sessionID: String?, mediaURL: String, savedSince: Milliseconds) throws(JournalError) -> SessionSnapshot? {
        let byID = sessionID.flatMap { $0.isEmpty ? nil : $0 }
        let json = try perform("looking up the saved session") { () throws(SQLiteError) in
            try database.withStatement(byID == nil ? Self.selectSessionByMediaURL : Self.selectSessionByID) {
                statement throws(SQLiteError) in
                try statement.bind(byID ?? mediaURL, at: 1)
                try statement.bind(savedSince, at: 2)
                return try statement.step() ? statement.blob(at: 0) : nil
            }
        }
        guard let json else { return nil }
        do {
            return try decoder.decode(SessionSnapshot.self, from: Data(json))
        } catch {
            throw JournalError(reason: "the saved session of \(byID ?? mediaURL) in \(path) does not decode: \(error)")
        }
    }

    /// A session with no session id counts as having unfinished deliveries while any delivery
    /// without a session id is unfinished.
    package func prune(before cutoff: Milliseconds) throws(JournalError) {
        // Some known rows are deleted now; the others are found again by key on their next save.
        rowIDs = [:]
        let wallNow = JournalClock(time).wall
        try perform("pruning the journal") { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                auditBytes = try trimAudit(bytes: auditBytes, wallNow: wallNow)
                for sql in [Self.deleteFinished, Self.deleteSessions] {
                    try database.withStatement(sql) { statement throws(SQLiteError) in
                        try statement.bind(cutoff, at: 1)
                        try statement.run()
                    }
                }
                try database.execute("PRAGMA incremental_vacuum")
            }
            // Copies the log into the file (which shrinks it by the vacuumed pages) and empties the log.
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    // MARK: Statements

    private static let upsertDelivery = """
        INSERT INTO deliveries (\(BeaconDelivery.journalColumns))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)
        ON CONFLICT (\(JournalSchema.deliveryKey)) DO UPDATE SET
            ad_index = excluded.ad_index, event_index = excluded.event_index, state = excluded.state,
            attempts = excluded.attempts, last_status = excluded.last_status, last_error = excluded.last_error,
            due_at = excluded.due_at, next_attempt_at = excluded.next_attempt_at, updated_at = excluded.updated_at,
            resend = excluded.resend, due_wall_at = excluded.due_wall_at, updated_wall_at = excluded.updated_wall_at,
            sent_url = excluded.sent_url
        RETURNING id
        """
    private static let updateDelivery = """
        UPDATE deliveries SET ad_index = ?1, event_index = ?2, state = ?3, attempts = ?4, last_status = ?5,
            last_error = ?6, due_at = ?7, next_attempt_at = ?8, updated_at = ?9, resend = ?10, due_wall_at = ?11,
            updated_wall_at = ?12
        WHERE id = ?13
        """
    private static let upsertSession = """
        INSERT INTO sessions (session_id, media_url, saved_at, snapshot, saved_wall_at) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (session_id, media_url) DO UPDATE SET
            saved_at = excluded.saved_at, snapshot = excluded.snapshot, saved_wall_at = excluded.saved_wall_at
        """
    private static let selectUnfinished = """
        SELECT \(BeaconDelivery.journalColumns) FROM deliveries
        WHERE state IN \(JournalSchema.unfinishedStates) ORDER BY due_at, id
        """
    private static let selectOfSession = """
        SELECT \(BeaconDelivery.journalColumns) FROM deliveries WHERE session_id = ?1 ORDER BY due_at, id
        """
    private static let selectSessionByID = """
        SELECT snapshot FROM sessions WHERE session_id = ?1 AND saved_at >= ?2 ORDER BY saved_at DESC, id DESC LIMIT 1
        """
    private static let selectSessionByMediaURL = """
        SELECT snapshot FROM sessions WHERE media_url = ?1 AND saved_at >= ?2 ORDER BY saved_at DESC, id DESC LIMIT 1
        """
    private static let deleteFinished = """
        DELETE FROM deliveries WHERE state IN \(JournalSchema.finishedStates) AND updated_at < ?1
        """
    private static let deleteSessions = """
        DELETE FROM sessions WHERE saved_at < ?1 AND NOT EXISTS (
            SELECT 1 FROM deliveries
            WHERE deliveries.session_id = sessions.session_id AND deliveries.state IN \(JournalSchema.unfinishedStates))
        """

    // MARK: Helpers

    private static func deliveries(from statement: SQLiteStatement) throws(SQLiteError) -> [BeaconDelivery] {
        var deliveries: [BeaconDelivery] = []
        while try statement.step() {
            deliveries.append(try BeaconDelivery(journalRow: statement))
        }
        return deliveries
    }

    private static func describeSave(_ count: Int, withSession: Bool) -> String {
        "saving " + (count == 1 ? "1 delivery" : "\(count) deliveries") + (withSession ? " and the session" : "")
    }

    func perform<Result>(
        _ operation: @autoclosure () -> String, _ body: () throws(SQLiteError) -> Result
    ) throws(JournalError) -> Result {
        try Self.perform(operation(), file: path, directory: directory, body)
    }

    /// Runs `body`, turning what SQLite reports into a journal error that says what was being done.
    private static func perform<Result>(
        _ operation: @autoclosure () -> String, file: String, directory: String, _ body: () throws(SQLiteError) -> Result
    ) throws(JournalError) -> Result {
        do {
            return try body()
        } catch {
            throw JournalError(error, while: operation(), file: file, directory: directory)
        }
    }
}
