/// The daemon's hold on its journal: writes go through while it works; when it fails, the daemon
/// carries on from memory and the journal is reopened now and then until it works again.
package struct JournalAccess {
    /// Opens (or creates) the journal.
    package typealias Opener = @Sendable () throws(JournalError) -> any BeaconJournal

    /// How long after a failure the journal is tried again.
    package static let reopenInterval: Milliseconds = 10_000

    private let opener: Opener?
    private var journal: (any BeaconJournal)?
    /// Why the journal is not in use; nil while it works or when there is none by configuration.
    package private(set) var problem: String?
    private var nextOpenAt: Milliseconds = 0

    /// Without an opener the daemon keeps everything in memory, by configuration.
    package init(opener: Opener?) {
        self.opener = opener
    }

    package var isConfigured: Bool { opener != nil }

    /// Whether a closed journal may be opened at `now`.
    package func mayOpen(now: Milliseconds) -> Bool {
        opener != nil && journal == nil && now >= nextOpenAt
    }

    /// When the next reopen is due, while the journal is out of use.
    package var nextOpenTime: Milliseconds? { opener != nil && journal == nil ? nextOpenAt : nil }

    /// Opens the journal; on failure it is tried again after ``reopenInterval``.
    package mutating func open(now: Milliseconds) -> Result<Void, JournalError> {
        guard let opener, journal == nil else { return .success(()) }
        do {
            journal = try opener()
            problem = nil
            return .success(())
        } catch {
            fail(error, now: now)
            return .failure(error)
        }
    }

    /// Runs `operation` on the open journal. Nil when there is none; a failure closes it until a reopen.
    package mutating func use<Value>(
        now: Milliseconds, _ operation: (any BeaconJournal) throws(JournalError) -> Value
    ) -> Result<Value, JournalError>? {
        guard let journal else { return nil }
        do {
            return .success(try operation(journal))
        } catch {
            fail(error, now: now)
            return .failure(error)
        }
    }

    private mutating func fail(_ error: JournalError, now: Milliseconds) {
        journal = nil
        problem = error.reason
        nextOpenAt = now + Self.reopenInterval
    }
}
