/// The tables of the SQLite journal, and the version they are kept under in `PRAGMA user_version`.
///
/// A new schema gets a new version and a step from the one before; a journal of a newer version
/// than this code knows is refused, never rewritten.
enum JournalSchema {
    static let version: Int64 = 1

    /// The states of deliveries still to be requested, as an SQL list: the same text in the
    /// partial index and in the queries, so that SQLite sees the index applies.
    static let unfinishedStates = sqlList(BeaconDelivery.State.allCases.filter { !$0.isFinished })
    static let finishedStates = sqlList(BeaconDelivery.State.allCases.filter(\.isFinished))

    /// What identifies a delivery: the columns of `BeaconDelivery.Key`.
    static let deliveryKey = "session_id, pod_id, ad_id, event, event_start, url, occurrence"

    /// Version 1, from an empty file. The unique key's own index also serves lookups by
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
            UNIQUE (session_id, media_url)
        );
        CREATE INDEX IF NOT EXISTS sessions_by_media_url ON sessions (media_url, saved_at);
        CREATE INDEX IF NOT EXISTS sessions_by_saved_at ON sessions (saved_at);
        PRAGMA user_version = \(version);
        """

    private static func sqlList(_ states: [BeaconDelivery.State]) -> String {
        "(" + states.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
    }
}
