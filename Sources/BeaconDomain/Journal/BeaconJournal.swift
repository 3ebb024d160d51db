/// Durable storage for beacon deliveries and sessions, so that a restart forgets nothing.
///
/// The daemon is its only user and calls it from one actor; implementations need not be thread-safe.
/// Times are instants of the daemon's monotonic clock (``TimeSource/now()``) in this boot.
/// Every method either completes durably or throws: the daemon keeps working from memory when it throws.
package protocol BeaconJournal: AnyObject {
    /// Inserts or replaces these deliveries (by key) and, when given, the session snapshot, adds
    /// the audit records not kept yet (by id) and moves the export mark, in one transaction.
    func save(_ deliveries: [BeaconDelivery], session: SessionSnapshot?, audit: AuditChanges) throws(JournalError)

    /// Deliveries still due or in flight, of any session, oldest `dueAt` first.
    func unfinishedDeliveries() throws(JournalError) -> [BeaconDelivery]

    /// Every delivery of one session, any state.
    func deliveries(ofSession sessionID: String) throws(JournalError) -> [BeaconDelivery]

    /// The most recently saved session whose session id is `sessionID` when given, or else whose
    /// media URL is `mediaURL`, saved at or after `savedSince`.
    func session(sessionID: String?, mediaURL: String, savedSince: Milliseconds) throws(JournalError) -> SessionSnapshot?

    /// Deletes finished deliveries last updated before `cutoff`, and sessions last saved before
    /// `cutoff` that have no unfinished delivery.
    func prune(before cutoff: Milliseconds) throws(JournalError)
}

extension BeaconJournal {
    /// Saves deliveries and a snapshot without audit records.
    package func save(_ deliveries: [BeaconDelivery], session: SessionSnapshot?) throws(JournalError) {
        try save(deliveries, session: session, audit: AuditChanges())
    }
}

/// Why the journal could not read or write.
public struct JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    package var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}
