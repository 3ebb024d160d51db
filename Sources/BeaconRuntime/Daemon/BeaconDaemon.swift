import BeaconDomain
import BeaconHTTP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ServiceLifecycle

/// The running daemon: the owner of the daemon's core (``DaemonCore``, which decides everything),
/// feeding it one event at a time with the time and carrying out what it returns (a
/// ``DaemonExecutor``), once per event.
///
/// Input arrives parsed, through ``perform(_:line:from:)``, from any source (stdin, the control
/// socket, the demo's player: ``ControlProtocol`` reads their lines). `run()` runs sessions (a
/// ``SessionRunner``: init or resume, then metadata refreshes) and delivers fired beacons (a
/// ``DeliveryRunner``) until a graceful shutdown or `stop()`, then drains: in-flight beacons get
/// `drainTimeout` to finish.
package actor BeaconDaemon: Service {
    private var core: DaemonCore
    private var executor: DaemonExecutor
    /// The session runner, `load` replies and stdin, waiting on the supervisor.
    private var waiters = SessionWaiters()
    /// Session init and metadata requests: a pool of their own, so they never wait behind beacon requests.
    private let metadataClient: any HTTPClient
    private let time: TimeSource
    /// The audit's records, as kept (journal or memory): read by status and the telemetry reporter.
    nonisolated let audit: AuditLog
    private let drainTimeout: Duration
    /// The seconds a `load` replies as `resumePosition`: its content's bookmark, if any.
    private let resumePosition: @Sendable (LoadOptions) async -> Double?
    private let logLinesDropped: @Sendable () -> Int
    /// Logs refused lines, a few per client each second; the control protocol's tasks use it too.
    package nonisolated let refusedLines: RefusedLineLog
    /// Until the journal's first opening has been tried, status waits: it would say a journal it
    /// has not tried yet is fine.
    private var journalTried = false
    private var journalTriedWaiters: [CheckedContinuation<Void, Never>] = []
    private let stopRequests: AsyncStream<Void>
    private let stopInput: AsyncStream<Void>.Continuation

    /// - Parameters:
    ///   - client: sends beacon requests.
    ///   - metadataClient: sends session init and metadata requests; give it its own connections
    ///     (a second `CurlHTTPClient`), so that beacon requests holding a host's connections never
    ///     delay a metadata refresh. Without it, `client` sends them too.
    ///   - journal: opens the durable journal of deliveries and sessions; without it the daemon
    ///     keeps everything in memory.
    ///   - stateDirectory: the directory of that journal, whose audit ``audit`` reads back.
    ///   - time: the monotonic instant every schedule is counted on and every wait sleeps on
    ///     (session init, metadata, retries, the drain timeout), and the wall clock for what is shown.
    ///   - random: every random draw (backoff jitter, macros).
    ///   - announce: receives the session's JSON line when a session is ready (stdout in `run`).
    ///   - notifications: tells its subscribers what the daemon did, as it happens.
    ///   - logLinesDropped: how many log lines stderr did not take, for status.
    ///   - resumePosition: the seconds a `load` replies as `resumePosition` (its content's bookmark), if any; read off the actor.
    ///   - beaconsEnabled: whether the `beacons` reporter is enabled, read as each batch of requests
    ///     leaves; disabled, the batch is handled as in quiet mode (not sent, reporting state done).
    package init(
        configuration: DaemonConfiguration,
        client: any HTTPClient,
        metadataClient: (any HTTPClient)? = nil,
        journal: (@Sendable () throws(JournalError) -> any BeaconJournal)? = nil,
        stateDirectory: String? = nil,
        time: TimeSource = .system,
        random: any RandomNumberGenerator & Sendable,
        logger: Logger,
        announce: @escaping @Sendable (String) -> Void = { _ in },
        notifications: DaemonNotificationHub = DaemonNotificationHub(),
        logLinesDropped: @escaping @Sendable () -> Int = { 0 },
        resumePosition: @escaping @Sendable (LoadOptions) async -> Double? = { _ in nil },
        beaconsEnabled: @escaping @Sendable () -> Bool = { true }
    ) {
        core = DaemonCore(configuration: configuration, random: random)
        self.metadataClient = metadataClient ?? client
        self.time = time
        drainTimeout = configuration.drainTimeout
        self.resumePosition = resumePosition
        self.logLinesDropped = logLinesDropped
        let pump = DeliveryPump(sender: BeaconSender(client: client, quiet: configuration.quiet), beaconsEnabled: beaconsEnabled)
        let logs = DaemonLogs(logger, debugTracking: configuration.debugTracking)
        refusedLines = RefusedLineLog(logger: logs.input, time: time)
        let writer = JournalWriter(opener: journal, now: { time.now() }, logger: logs.journal, failed: { pump.timer.signal() })
        audit = AuditLog(journal: writer, directory: stateDirectory, wallNow: { time.wallNow() })
        executor = DaemonExecutor(
            logger: logger, logs: logs, refusedLines: refusedLines, notifications: notifications, announce: announce, journal: writer,
            audit: audit, delivery: DeliveryRunner(pump: pump, journal: writer, audit: audit, time: time))
        (stopRequests, stopInput) = AsyncStream.makeStream()
    }

    /// Feeds one event to the core, with the time, and carries out what it decided: the one way in
    /// for every event, the session and delivery runners' included.
    func step<Answer: Sendable>(
        _ event: @Sendable (inout DaemonCore, _ now: Milliseconds, _ wallNow: Milliseconds) -> DaemonStep<Answer>
    ) -> Answer {
        let decided = event(&core, time.now(), time.wallNow())
        executor.carryOut(decided.actions, waiters: &waiters)
        return decided.answer
    }

    private var journal: JournalWriter { executor.journal }

    // MARK: Running

    package func run() async {
        await openJournal()
        await withDiscardingTaskGroup { group in
            group.addTask { await SessionRunner(daemon: self, client: self.metadataClient, time: self.time, journal: self.journal).run() }
            group.addTask { await self.executor.delivery.run(for: self) }
            group.addTask {
                try? await gracefulShutdown()
                self.stop()
            }
            for await _ in stopRequests { break }
            step { core, now, wallNow in core.beginDrain(now: now, wallNow: wallNow) }
            if await !executor.delivery.drains(within: drainTimeout) {
                step { core, _, _ in core.drainTimedOut() }
            }
            group.cancelAll()
        }
        // Requests cancelled by the drain timeout stay due, as possible re-sends.
        let ended = executor.delivery.pump.results.takeAll()
        step { core, now, wallNow in core.requestsEnded(ended, now: now, wallNow: wallNow) }
        await journal.flush()
        let written = executor.delivery.written.takeAll()
        step { core, _, _ in core.journalWrote(written) }
        executor.notifications.finish()
    }

    /// Ends the daemon as a graceful shutdown would: stop sessions, drain beacons, return from `run()`.
    package nonisolated func stop() {
        stopInput.yield()
    }

    /// Takes on the settings a reload may change, from the next use of each on.
    package func apply(_ runtime: RuntimeSettings) {
        step { core, _, _ in core.reload(runtime) }
    }

    // MARK: Sessions: the waits of the session runner, `load` and stdin

    /// Returns once no session is starting (see ``SessionPhase/isSettled``). Stdin waits for this,
    /// so a recorded feed piped in at once is judged against the session's metadata instead of racing it.
    package func waitUntilSettled() async {
        guard !core.supervisor.isSettled else { return }
        await withCheckedContinuation { waiters.waitForSettled($0) }
    }

    /// The next init to start, the first asked for after generation `started`; nil once draining.
    func nextWantedSession(after started: Int?) async -> SessionPhase.Initializing? {
        if core.isDraining { return nil }
        if let wanted = core.supervisor.initToStart(after: started) { return wanted }
        return await withCheckedContinuation { waiters.waitForNextInit($0) }
    }

    /// Returns once the session of `generation` ended (at once if it has).
    func waitForSessionEnd(_ generation: Int) async {
        guard core.supervisor.isCurrent(generation) else { return }
        await withCheckedContinuation { waiters.waitForSessionEnd($0) }
    }

    func isCurrent(_ generation: Int) -> Bool { core.supervisor.isCurrent(generation) }

    // MARK: Input

    /// Counts every refused line and tells the outputs; ``RefusedLineLog`` decides what is logged.
    /// `line` is the line, when it was text.
    package func lineRefused(_ reason: String, line: String?, from client: InputClient) {
        step { core, _, _ in core.lineRefused(reason, line: line, from: client) }
    }

    /// Does what one parsed input line asks; returns the reply for its sender, if it asks for one.
    /// `line` is the line as written, shown in the log if the daemon refuses it (a tick outside
    /// the session's timeline). `status` and `events` are answered by ``ControlProtocol``.
    package func perform(_ command: InputCommand, line: String, from client: InputClient) async -> String? {
        switch step({ core, now, wallNow in core.input(command, line: line, from: client, now: now, wallNow: wallNow) }) {
        case .done:
            return nil
        case .refused(let reason):
            return ControlReply.errorLine(reason)
        case .awaitsLoad(let generation, let options):
            let result = await withCheckedContinuation { waiters.waitForLoad(generation: generation, $0) }
            switch result {
            case .success(let endpoints):
                return endpoints.announcement(resumePosition: await resumePosition(options))
            case .failure(let error):
                return ControlReply.errorLine(error.reason)
            }
        }
    }

    // MARK: Delivery

    /// The delivery timer woke (or starts): reopens the journal if due, starts what is due and
    /// returns when the next retry or journal reopen is due.
    func timePassed() async -> Milliseconds? {
        if await journal.reopenIfDue(now: time.now()) {
            step { core, now, _ in core.journalReopened(now: now) }
        }
        let nextWake = step { core, now, wallNow in core.timePassed(now: now, wallNow: wallNow) }
        return [nextWake, journal.status.nextOpenTime].compactMap { $0 }.min()
    }

    // MARK: Journal

    /// Opens the journal and resumes the deliveries it left unfinished.
    private func openJournal() async {
        defer {
            journalTried = true
            for waiter in journalTriedWaiters { waiter.resume() }
            journalTriedWaiters = []
        }
        guard let restored = await journal.openForRestore() else { return }
        step { core, now, wallNow in core.journalRestored(restored, now: now, wallNow: wallNow) }
    }

    // MARK: Status

    /// What the daemon knows and did, for `status`, once the journal was tried (at once without one).
    package func snapshotOnceStarted() async -> DaemonSnapshot {
        if !journalTried, journal.status.isConfigured {
            await withCheckedContinuation { journalTriedWaiters.append($0) }
        }
        return snapshot()
    }

    /// What the daemon knows and did, for `status`: ``StatusReport/init(_:)`` reads it.
    package func snapshot() -> DaemonSnapshot {
        var snapshot = core.snapshot()
        snapshot.counters.journalErrors = journal.status.errors
        snapshot.counters.logLinesDropped = logLinesDropped()
        snapshot.wallOffset = time.wallOffset()
        snapshot.journal = journal.report
        return snapshot
    }
}
