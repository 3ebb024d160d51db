import BeaconDomain
import Logging

/// What the daemon asks of the journal about sessions: the deliveries to resume at start, a saved
/// session to resume on load, and how the journal is doing for status.
extension JournalWriter {
    /// Opens the journal and reads the deliveries it left unfinished: nil when there is no journal
    /// or it could not be opened or read (the daemon then keeps deliveries in memory).
    func openForRestore() async -> [BeaconDelivery]? {
        guard status.isConfigured else { return nil }
        if case .failure(let error) = await open() {
            logger.error("journal unavailable, keeping deliveries in memory only reason=\"\(error.reason)\"")
            return nil
        }
        return await read { journal throws(JournalError) in try journal.unfinishedDeliveries() }
    }

    /// A saved session to resume for this media URL, if the journal has one saved since `savedSince`.
    func savedSession(for mediaURL: String, savedSince: Milliseconds) async -> SessionSnapshot? {
        let sessionID = SessionEndpoints.sessionID(in: mediaURL)
        return await read { journal throws(JournalError) in
            try journal.session(sessionID: sessionID, mediaURL: mediaURL, savedSince: savedSince)
        } ?? nil
    }

    /// The deliveries of a session the journal holds; none when it is out of use.
    func deliveries(ofSession sessionKey: String) async -> [BeaconDelivery] {
        await read { journal throws(JournalError) in try journal.deliveries(ofSession: sessionKey) } ?? []
    }

    /// The journal as status shows it.
    var report: StatusReport.Journal {
        let health = status
        guard health.isConfigured else { return StatusReport.Journal(state: .off) }
        return health.problem.map { StatusReport.Journal(state: .unavailable, error: $0) } ?? StatusReport.Journal(state: .ok)
    }
}
