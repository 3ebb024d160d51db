/// How a delivery is stored as a row of the journal's `deliveries` table.
///
/// The reference's pod is the key's: the row keeps one `pod_id`.
extension BeaconDelivery {
    /// The columns, in the order `bind(to:)` numbers its parameters and `init(journalRow:)` reads.
    static let journalColumns = JournalSchema.deliveryKey
        + ", ad_index, event_index, state, attempts, last_status, last_error, due_at, next_attempt_at, updated_at, resend"

    /// Binds every field as parameters 1 to 17, in the order of `journalColumns`.
    func bind(to statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(key.sessionID, at: 1)
        try statement.bind(key.podID, at: 2)
        try statement.bind(key.adID, at: 3)
        try statement.bind(key.event.rawValue, at: 4)
        try statement.bind(key.eventStart, at: 5)
        try statement.bind(key.url, at: 6)
        try statement.bind(key.occurrence, at: 7)
        try statement.bind(reference.adIndex, at: 8)
        try statement.bind(reference.eventIndex, at: 9)
        try statement.bind(state.rawValue, at: 10)
        try statement.bind(attempts, at: 11)
        try statement.bind(lastStatus, at: 12)
        try statement.bind(lastError, at: 13)
        try statement.bind(dueAt, at: 14)
        try statement.bind(nextAttemptAt, at: 15)
        try statement.bind(updatedAt, at: 16)
        try statement.bind(resend, at: 17)
    }

    /// The delivery in the current row of a query selecting `journalColumns`.
    init(journalRow row: SQLiteStatement) throws(SQLiteError) {
        let key = Key(
            sessionID: row.text(at: 0), podID: row.text(at: 1), adID: row.text(at: 2),
            event: TrackingEventType(rawValue: row.text(at: 3)), eventStart: row.int64(at: 4), url: row.text(at: 5),
            occurrence: row.int64(at: 6))
        self.init(
            key: key,
            reference: EventReference(podID: key.podID, adIndex: row.int(at: 7), eventIndex: row.int(at: 8)),
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
