import BeaconDomain
/// How a delivery is stored as a row of the journal's `deliveries` table.
///
/// The reference's ad break is the key's: the row keeps one `pod_id`. Its times are instants of the
/// journal's boot, with the wall-clock times a later boot estimates them from.
extension BeaconDelivery {
    /// The columns, in the order `bind(to:)` numbers its parameters and `init(journalRow:)` reads.
    static let journalColumns = JournalSchema.deliveryKey
        + ", ad_index, event_index, state, attempts, last_status, last_error, due_at, next_attempt_at, updated_at, resend, due_wall_at, updated_wall_at, sent_url"

    /// Binds every field as parameters 1 to 20, in the order of `journalColumns`, its times as read on `clock`.
    func bind(to statement: SQLiteStatement, clock: JournalClock) throws(SQLiteError) {
        try statement.bind(key.sessionKey, at: 1)
        try statement.bind(key.adBreakID, at: 2)
        try statement.bind(key.adID, at: 3)
        try statement.bind(key.event.rawValue, at: 4)
        try statement.bind(key.eventStart, at: 5)
        try statement.bind(key.url, at: 6)
        try statement.bind(key.occurrence, at: 7)
        try bindFields(to: statement, from: 8, clock: clock)
        // Null when it is the URL of the key (no macro), the row of a delivery that never changes it.
        let stored: String? = sentURL == key.url ? nil : sentURL
        try statement.bind(stored, at: 8 + Self.journalFieldCount)
    }

    /// The columns of `journalColumns` after the key and before `sent_url`, which `bindFields(to:from:)` binds:
    /// all that may change once the delivery is made.
    static let journalFieldCount: Int32 = 12

    /// Binds every field but the key, in the order of `journalColumns`, from parameter `first` on.
    func bindFields(to statement: SQLiteStatement, from first: Int32, clock: JournalClock) throws(SQLiteError) {
        try statement.bind(reference.adIndex, at: first)
        try statement.bind(reference.eventIndex, at: first + 1)
        try statement.bind(state.rawValue, at: first + 2)
        try statement.bind(attempts, at: first + 3)
        try statement.bind(lastStatus, at: first + 4)
        try statement.bind(lastError, at: first + 5)
        try statement.bind(dueAt, at: first + 6)
        try statement.bind(nextAttemptAt, at: first + 7)
        try statement.bind(updatedAt, at: first + 8)
        try statement.bind(resend, at: first + 9)
        try statement.bind(clock.wall(of: dueAt), at: first + 10)
        try statement.bind(clock.wall(of: updatedAt), at: first + 11)
    }

    /// The delivery in the current row of a query selecting `journalColumns`, of this boot (the
    /// journal moves the rows of another boot to this one's clock when it opens).
    init(journalRow row: SQLiteStatement) throws(SQLiteError) {
        let key = Key(
            sessionKey: row.text(at: 0), adBreakID: row.text(at: 1), adID: row.text(at: 2),
            event: TrackingEventType(rawValue: row.text(at: 3)), eventStart: row.int64(at: 4), url: row.text(at: 5),
            occurrence: row.int64(at: 6))
        self.init(
            key: key,
            // A row of a journal of version 2 has none: it sends the URL of its key, as it did.
            sentURL: row.optionalText(at: 19),
            reference: EventReference(adBreakID: key.adBreakID, adIndex: row.int(at: 7), eventIndex: row.int(at: 8)),
            state: try row.value(at: 9),
            attempts: row.int(at: 10),
            lastStatus: row.optionalInt(at: 11),
            lastError: row.optionalText(at: 12),
            dueAt: row.int64(at: 13),
            nextAttemptAt: row.int64(at: 14),
            updatedAt: row.int64(at: 15),
            resend: row.bool(at: 16))
    }
}
