import BeaconDomain
import Logging
import NIOPosix
import Synchronization

/// The daemon's durable journal of deliveries and sessions, used off the daemon: every journal
/// call runs on a thread of NIO's blocking pool, one at a time, never on the daemon's actor nor on
/// the cooperative pool, so ticks never wait behind a commit.
///
/// Group commit: every save submitted while a commit runs goes into the next one, a single
/// transaction. A save's acknowledgement runs once the write is on disk (or failed, or the journal
/// is out of use and the daemon works from memory): requests start from there, never before.
/// A failed call closes the journal until ``reopenIfDue(now:)`` opens it again (see ``JournalAccess``).
final class JournalWriter: Sendable {
    /// What a save came to: nil when the journal is out of use (or there is none) and nothing was written.
    typealias Acknowledgement = @Sendable (Result<Void, JournalError>?) -> Void

    /// How the journal is doing, readable at any time without waiting for a commit.
    struct Health: Sendable, Equatable {
        var isConfigured: Bool
        /// Why the journal is out of use; nil while it works.
        var problem: String?
        /// Failed opens and calls so far.
        var errors = 0
        /// When a closed journal may be opened again.
        var nextOpenTime: Milliseconds?
    }

    private enum Job: Sendable {
        case save([BeaconDelivery], SessionSnapshot?, [AuditRecord], Acknowledgement)
        /// The exporter's mark, which waits for a commit like a save and needs no acknowledgement.
        case markAuditExported(Int64)
        case access(@Sendable (inout JournalAccess) -> Void)
    }

    /// Saves merged into one transaction: each delivery's latest state, the latest snapshot, the
    /// audit records in order.
    private struct Commit {
        var deliveries: [BeaconDelivery.Key: BeaconDelivery] = [:]
        var snapshot: SessionSnapshot?
        var audit: [AuditRecord] = []
        var exportedThrough: Int64?
        var acknowledgements: [Acknowledgement] = []

        var isEmpty: Bool { acknowledgements.isEmpty && exportedThrough == nil }
    }

    private struct Pending {
        var jobs: [Job] = []
        /// A thread is taking jobs: new ones wait for it instead of starting another.
        var working = false
    }

    private let access: Mutex<JournalAccess>
    private let pending = Mutex(Pending())
    private let health: Mutex<Health>
    private let now: @Sendable () -> Milliseconds
    let logger: Logger
    private let failed: @Sendable () -> Void

    /// - Parameters:
    ///   - opener: opens the journal; without it everything stays in memory.
    ///   - now: the monotonic instant, for when a failed journal is tried again.
    ///   - failed: called after a failed call, so the retry timer looks at the reopen time.
    init(opener: JournalAccess.Opener?, now: @escaping @Sendable () -> Milliseconds, logger: Logger, failed: @escaping @Sendable () -> Void) {
        access = Mutex(JournalAccess(opener: opener))
        health = Mutex(Health(isConfigured: opener != nil))
        self.now = now
        self.logger = logger
        self.failed = failed
    }

    var status: Health { health.withLock { $0 } }

    /// Writes `deliveries`, when given the session's snapshot, and the `audit` records with the
    /// next commit; then calls `acknowledged` on the journal's thread. Without a journal it is
    /// called at once.
    func submit(
        _ deliveries: [BeaconDelivery], session snapshot: SessionSnapshot? = nil, audit: [AuditRecord] = [],
        acknowledged: @escaping Acknowledgement
    ) {
        guard health.withLock({ $0.isConfigured }) else { return acknowledged(nil) }
        enqueue(.save(deliveries, snapshot, audit, acknowledged))
    }

    /// Writes the telemetry exporter's mark with the next commit.
    func markAuditExported(through sequence: Int64) {
        guard health.withLock({ $0.isConfigured }) else { return }
        enqueue(.markAuditExported(sequence))
    }

    /// Writes as ``submit(_:session:acknowledged:)`` does and returns once it is acknowledged.
    @discardableResult
    func save(_ deliveries: [BeaconDelivery], session snapshot: SessionSnapshot? = nil) async -> Result<Void, JournalError>? {
        await withCheckedContinuation { continuation in
            submit(deliveries, session: snapshot) { continuation.resume(returning: $0) }
        }
    }

    /// Opens the journal; on failure it is tried again after ``JournalAccess/reopenInterval``.
    func open() async -> Result<Void, JournalError> {
        let now = now
        return await perform { access in
            let opened = access.open(now: now())
            if case .failure = opened { self.health.withLock { $0.errors += 1 } }
            return opened
        } ?? .success(())
    }

    /// Opens a journal closed by a failure once its reopen time came; true when it opened now.
    func reopenIfDue(now instant: Milliseconds) async -> Bool {
        guard status.nextOpenTime.map({ instant >= $0 }) == true else { return false }
        return await perform { access in
            guard access.mayOpen(now: instant) else { return false }
            guard case .success = access.open(now: instant) else {
                self.health.withLock { $0.errors += 1 }
                return false
            }
            return true
        } ?? false
    }

    /// Runs a read on the journal's thread: nil when the journal is out of use or the read failed.
    func read<Value: Sendable>(_ operation: @escaping @Sendable (any BeaconJournal) throws(JournalError) -> Value) async -> Value? {
        let now = now
        return await perform { access in
            let result = access.use(now: now(), operation)
            if case .failure(let error)? = result { self.callFailed(error, access) }
            return try? result?.get()
        } ?? nil
    }

    /// Forgets finished deliveries last updated before `cutoff`, and old sessions (see ``BeaconJournal/prune(before:)``).
    func prune(before cutoff: Milliseconds) {
        guard health.withLock({ $0.isConfigured }) else { return }
        let now = now
        enqueue(.access { access in
            let result = access.use(now: now()) { journal throws(JournalError) in try journal.prune(before: cutoff) }
            if case .failure(let error)? = result { self.callFailed(error, access) }
        })
    }

    /// Returns once everything submitted before has been written.
    func flush() async {
        _ = await perform { _ in true }
    }

    /// Runs `body` on the journal's thread, in turn with every other call; nil without a journal.
    private func perform<Value: Sendable>(_ body: @escaping @Sendable (inout JournalAccess) -> Value) async -> Value? {
        guard health.withLock({ $0.isConfigured }) else { return nil }
        return await withCheckedContinuation { continuation in
            enqueue(.access { access in
                let value = body(&access)
                self.publish(access)
                continuation.resume(returning: value)
            })
        }
    }

    private func enqueue(_ job: Job) {
        let idle = pending.withLock { pending in
            pending.jobs.append(job)
            defer { pending.working = true }
            return !pending.working
        }
        if idle { NIOThreadPool.singleton.submit { _ in self.work() } }
    }

    /// Takes every job waiting, runs them in order, the saves among them one commit per run of
    /// saves, until none is left.
    private func work() {
        while let jobs = takeJobs() {
            access.withLock { access in
                var commit = Commit()
                for job in jobs {
                    switch job {
                    case .save(let deliveries, let snapshot, let audit, let acknowledged):
                        // A snapshot of another session cannot share the transaction: one snapshot per save.
                        if let snapshot, let held = commit.snapshot, held.endpoints.sessionKey != snapshot.endpoints.sessionKey {
                            write(&commit, on: &access)
                        }
                        commit.deliveries.reserveCapacity(commit.deliveries.count + deliveries.count)
                        for delivery in deliveries { commit.deliveries[delivery.key] = delivery }
                        if let snapshot { commit.snapshot = snapshot }
                        commit.audit += audit
                        commit.acknowledgements.append(acknowledged)
                    case .markAuditExported(let sequence):
                        commit.exportedThrough = max(commit.exportedThrough ?? sequence, sequence)
                    case .access(let body):
                        write(&commit, on: &access)
                        body(&access)
                    }
                }
                write(&commit, on: &access)
            }
        }
    }

    private func takeJobs() -> [Job]? {
        pending.withLock { pending in
            guard !pending.jobs.isEmpty else {
                pending.working = false
                return nil
            }
            defer { pending.jobs = [] }
            return pending.jobs
        }
    }

    private func write(_ commit: inout Commit, on access: inout JournalAccess) {
        guard !commit.isEmpty else { return }
        let deliveries = Array(commit.deliveries.values)
        let snapshot = commit.snapshot
        let audit = AuditChanges(records: commit.audit, exportedThrough: commit.exportedThrough)
        var result: Result<Void, JournalError>? = .success(())
        if !deliveries.isEmpty || snapshot != nil || !audit.isEmpty {
            result = access.use(now: now()) { journal throws(JournalError) in try journal.save(deliveries, session: snapshot, audit: audit) }
        }
        publish(access)
        if case .failure(let error)? = result { callFailed(error, access) }
        for acknowledged in commit.acknowledgements { acknowledged(result) }
        commit = Commit()
    }

    /// Makes the journal's state readable without waiting: before anyone hears of a change.
    private func publish(_ access: JournalAccess) {
        health.withLock { health in
            health.problem = access.problem
            health.nextOpenTime = access.nextOpenTime
        }
    }

    private func callFailed(_ error: JournalError, _ access: JournalAccess) {
        publish(access)
        health.withLock { $0.errors += 1 }
        logger.error(
            "journal write failed, keeping deliveries in memory and retrying in \(JournalAccess.reopenInterval / 1000) s reason=\"\(error.reason)\"")
        failed()
    }
}
