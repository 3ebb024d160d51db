import BeaconDomain
/// The tables of the SQLite journal, and the version they are kept under in `PRAGMA user_version`.
///
/// A new schema gets a new version and a step from the one before; a journal of a newer version
/// than this code knows is refused, never rewritten.
enum JournalSchema {
    static let version: Int64 = 3

    /// The states of deliveries still to be requested, as an SQL list: the same text in the
    /// partial index and in the queries, so that SQLite sees the index applies.
    static let unfinishedStates = sqlList(BeaconDelivery.State.allCases.filter { !$0.isFinished })
    static let finishedStates = sqlList(BeaconDelivery.State.allCases.filter(\.isFinished))

    /// What identifies a delivery: the columns of `BeaconDelivery.Key`.
    static let deliveryKey = "session_id, pod_id, ad_id, event, event_start, url, occurrence"

    /// The current version, from an empty file. The unique key's own index also serves lookups by
    /// session id (its first column), so that needs no index of its own.
    static let creation = """
        CREATE TABLE IF NOT EXISTS deliveries (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL,
            pod_id TEXT NOT NULL,
            ad_id TEXT NOT NULL,
            event TEXT NOT NULL,
            event_start INTEGER NOT NULL,
            url TEXT NOT NULL,
            occurrence INTEGER NOT NULL,
            ad_index INTEGER NOT NULL,
            event_index INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN \(sqlList(BeaconDelivery.State.allCases))),
            attempts INTEGER NOT NULL,
            last_status INTEGER,
            last_error TEXT,
            due_at INTEGER NOT NULL,
            next_attempt_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            resend INTEGER NOT NULL,
            due_wall_at INTEGER NOT NULL,
            updated_wall_at INTEGER NOT NULL,
            sent_url TEXT,
            UNIQUE (\(deliveryKey))
        );
        CREATE INDEX IF NOT EXISTS deliveries_unfinished ON deliveries (due_at, id) WHERE state IN \(unfinishedStates);
        CREATE INDEX IF NOT EXISTS deliveries_finished ON deliveries (updated_at) WHERE state IN \(finishedStates);
        CREATE TABLE IF NOT EXISTS sessions (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL,
            media_url TEXT NOT NULL,
            saved_at INTEGER NOT NULL,
            snapshot BLOB NOT NULL,
            saved_wall_at INTEGER NOT NULL,
            UNIQUE (session_id, media_url)
        );
        CREATE INDEX IF NOT EXISTS sessions_by_media_url ON sessions (media_url, saved_at);
        CREATE INDEX IF NOT EXISTS sessions_by_saved_at ON sessions (saved_at);
        \(clockTable)
        \(bookmarksTable)
        PRAGMA user_version = \(version);
        """

    /// The last bookmark of each content id (`record-bookmark`): its content position and when it
    /// was saved, on the wall clock (a bookmark outlives boots, and no schedule counts on it).
    ///
    /// Made at every open when missing (``additions``), without a new version: the release before
    /// reads a journal with one more table as it is, where a new version would make it refuse the file.
    static let bookmarksTable = """
        CREATE TABLE IF NOT EXISTS bookmarks (
            content_id TEXT PRIMARY KEY,
            position_ms INTEGER NOT NULL,
            saved_at INTEGER NOT NULL
        );
        """

    /// The boot whose clock the rows' instants are on: one row, the boot's id. Times kept beside
    /// each instant on the wall clock are what a later boot estimates them from.
    static let clockTable = """
        CREATE TABLE IF NOT EXISTS clock (boot_id TEXT NOT NULL);
        INSERT INTO clock (boot_id) SELECT '' WHERE NOT EXISTS (SELECT 1 FROM clock);
        """

    /// From version 1, whose times were all wall-clock times: each becomes the wall-clock time kept
    /// beside an instant, of an unknown boot, so that opening moves it to this boot's clock; then
    /// the step from version 2.
    static let fromVersion1 = """
        ALTER TABLE deliveries ADD COLUMN due_wall_at INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE deliveries ADD COLUMN updated_wall_at INTEGER NOT NULL DEFAULT 0;
        UPDATE deliveries SET due_wall_at = due_at, updated_wall_at = updated_at;
        ALTER TABLE sessions ADD COLUMN saved_wall_at INTEGER NOT NULL DEFAULT 0;
        UPDATE sessions SET saved_wall_at = saved_at;
        \(clockTable)
        \(fromVersion2)
        """

    /// From version 2, whose deliveries sent the URL of their key: the URL as sent, null for
    /// those rows, which go on sending the URL of their key (`sent_url` is null whenever the two are the same).
    static let fromVersion2 = """
        ALTER TABLE deliveries ADD COLUMN sent_url TEXT;
        PRAGMA user_version = \(version);
        """

    /// The step from each earlier version to the current one.
    static let steps: [Int64: String] = [1: fromVersion1, 2: fromVersion2]

    /// The audit (`beaconctl audit`, the telemetry reporter's outbox): one row per record, its JSON
    /// whole in `record` and the columns the filters read beside it. `seq` only grows
    /// (AUTOINCREMENT never hands out a deleted row's number again), so the export mark stays true
    /// after the oldest rows are dropped. `audit_state` holds the mark and the count of rows dropped
    /// to stay within the bounds.
    ///
    /// Made at every open when missing, like `bookmarks`: the release before reads the file as it is.
    static let auditTables = """
        CREATE TABLE IF NOT EXISTS audit (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            at INTEGER NOT NULL,
            kind TEXT NOT NULL,
            outcome TEXT,
            session_id TEXT,
            ad_break_id TEXT,
            ad_id TEXT,
            event TEXT,
            record TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS audit_by_at ON audit (at);
        CREATE INDEX IF NOT EXISTS audit_by_session ON audit (session_id, seq);
        CREATE TABLE IF NOT EXISTS audit_state (
            exported_through INTEGER NOT NULL,
            dropped INTEGER NOT NULL,
            dropped_unexported INTEGER NOT NULL
        );
        INSERT INTO audit_state SELECT 0, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM audit_state);
        """

    /// Tables that no release before reads, made at every open when missing: a journal of the
    /// current version written before they existed gets them, and keeps its version.
    static let additions = bookmarksTable + auditTables

    static let saveBookmark = """
        INSERT INTO bookmarks (content_id, position_ms, saved_at) VALUES (?1, ?2, ?3)
        ON CONFLICT (content_id) DO UPDATE SET position_ms = excluded.position_ms, saved_at = excluded.saved_at
        """
    static let selectBookmark = "SELECT position_ms FROM bookmarks WHERE content_id = ?1"

    static let selectBoot = "SELECT boot_id FROM clock"
    static let updateBoot = "UPDATE clock SET boot_id = ?1"

    /// Moves the times of a journal of another boot to this boot's clock (?1 the instant now, ?2
    /// the wall clock now, ?3 the beacon max age): each is estimated from its wall-clock time,
    /// never later than now. A due delivery's age is at most the max age, so it gets at least one
    /// attempt, now: the wall clock right after a boot is the least trusted.
    static let rebaseDeliveries = """
        UPDATE deliveries SET
            due_at = ?1 - CASE WHEN state IN \(unfinishedStates)
                THEN MIN(MAX(?2 - due_wall_at, 0), ?3) ELSE MAX(?2 - due_wall_at, 0) END,
            next_attempt_at = ?1,
            updated_at = ?1 - MAX(?2 - updated_wall_at, 0)
        """
    static let rebaseSessions = """
        UPDATE sessions SET saved_at = ?1 - MAX(?2 - saved_wall_at, 0)
        """

    private static func sqlList(_ states: [BeaconDelivery.State]) -> String {
        "(" + states.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
    }
}
