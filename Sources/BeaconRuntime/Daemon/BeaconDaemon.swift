import BeaconDomain
import BeaconHTTP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ServiceLifecycle

/// The running daemon: the single owner of the session, its schedule and its counters.
///
/// Input arrives parsed, through ``perform(_:line:from:)``, from any source (stdin, the control
/// socket, the demo's player: ``ControlProtocol`` reads their lines). `run()` runs sessions (a
/// ``SessionRunner``: init or resume, then metadata refreshes) and delivers fired beacons until a
/// graceful shutdown or `stop()`, then drains: in-flight beacons get `drainTimeout` to finish.
package actor BeaconDaemon: Service {
    private var configuration: DaemonConfiguration
    /// Session init and metadata requests: a pool of their own, so they never wait behind beacon requests.
    private let metadataClient: any HTTPClient
    private let time: TimeSource
    private let announce: @Sendable (String) -> Void
    /// The seconds a `load` replies as `resumePosition`: its content's bookmark, if any.
    private let resumePosition: @Sendable (LoadOptions) -> Double?
    /// Where every output hears what the daemon did.
    private let notifications: DaemonNotificationHub
    private let logger: Logger
    private var logs: DaemonLogs
    private let logLinesDropped: @Sendable () -> Int
    /// Logs refused lines, a few per client each second; the control protocol's tasks use it too.
    package nonisolated let refusedLines: RefusedLineLog

    /// The session's phase (idle, initializing, error, played, draining) and its generation.
    private var supervisor: SessionSupervisor
    /// What the latest `load` gave besides its URL (MediaTailor's `adsParams`).
    private var loadOptions = LoadOptions()
    private var lastError: String?
    /// When the last tick arrived, on the wall clock: only shown.
    private var lastTickAt: Milliseconds?
    private var counters = StatusReport.Counters()

    /// The session runner, `load` replies and stdin, waiting on the supervisor.
    private var waiters = SessionWaiters()

    private var draining: Bool { supervisor.isDraining }
    /// Every beacon delivery and what becomes of it: due, in flight, and finished ones until retention prunes them.
    private var deliveries: DeliveryCoordinator
    /// Every random draw: backoff jitter, macros.
    private var random: any RandomNumberGenerator & Sendable
    /// Deliveries and sessions on disk, written off the actor.
    private let journal: JournalWriter
    /// The delivery loops and the carrying-out of the coordinator's effects.
    private let delivery: DeliveryRunner
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
    ///   - time: the monotonic instant every schedule is counted on and every wait sleeps on
    ///     (session init, metadata, retries, the drain timeout), and the wall clock for what is shown.
    ///   - random: every random draw (backoff jitter, macros).
    ///   - announce: receives the session's JSON line when a session is ready (stdout in `run`).
    ///   - notifications: tells its subscribers what the daemon did, as it happens.
    ///   - logLinesDropped: how many log lines stderr did not take, for status.
    ///   - resumePosition: the seconds a `load` replies as `resumePosition` (its content's bookmark), if any.
    ///   - beaconsEnabled: whether the `beacons` reporter is enabled, read as each batch of requests
    ///     leaves; disabled, the batch is handled as in quiet mode (not sent, reporting state done).
    package init(
        configuration: DaemonConfiguration,
        client: any HTTPClient,
        metadataClient: (any HTTPClient)? = nil,
        journal: (@Sendable () throws(JournalError) -> any BeaconJournal)? = nil,
        time: TimeSource = .system,
        random: any RandomNumberGenerator & Sendable,
        logger: Logger,
        announce: @escaping @Sendable (String) -> Void = { _ in },
        notifications: DaemonNotificationHub = DaemonNotificationHub(),
        logLinesDropped: @escaping @Sendable () -> Int = { 0 },
        resumePosition: @escaping @Sendable (LoadOptions) -> Double? = { _ in nil },
        beaconsEnabled: @escaping @Sendable () -> Bool = { true }
    ) {
        self.resumePosition = resumePosition
        self.configuration = configuration
        self.metadataClient = metadataClient ?? client
        self.time = time
        self.random = random
        self.deliveries = DeliveryCoordinator(
            queue: DeliveryQueue(perHostLimit: configuration.maxInFlightPerHost, totalLimit: configuration.maxInFlight),
            retryPolicy: RetryPolicy(backoff: configuration.retryBackoff, maxAge: configuration.beaconMaxAge.milliseconds))
        let pump = DeliveryPump(sender: BeaconSender(client: client, quiet: configuration.quiet), beaconsEnabled: beaconsEnabled)
        self.announce = announce
        self.notifications = notifications
        self.logger = logger
        let logs = DaemonLogs(logger, debugTracking: configuration.debugTracking)
        self.logs = logs
        self.refusedLines = RefusedLineLog(logger: logs.input, time: time)
        let writer = JournalWriter(opener: journal, now: { time.now() }, logger: logs.journal, failed: { pump.timer.signal() })
        self.journal = writer
        delivery = DeliveryRunner(pump: pump, journal: writer, time: time)
        self.logLinesDropped = logLinesDropped
        (stopRequests, stopInput) = AsyncStream.makeStream()
        supervisor = SessionSupervisor(mediaURL: configuration.mediaURL)
    }

    /// The monotonic instant now: what every schedule is counted on.
    private func now() -> Milliseconds { time.now() }

    private func notify(_ notification: DaemonNotification) {
        notifications.publish(notification)
    }

    // MARK: Running

    package func run() async {
        await openJournal()
        await withDiscardingTaskGroup { group in
            group.addTask { await SessionRunner(daemon: self, client: self.metadataClient, time: self.time, journal: self.journal).run() }
            group.addTask { await self.delivery.run(for: self) }
            group.addTask {
                try? await gracefulShutdown()
                self.stop()
            }
            for await _ in stopRequests { break }
            beginDrain()
            await waitForDeliveries()
            group.cancelAll()
        }
        // Requests cancelled by the drain timeout stay due, as possible re-sends.
        record(delivery.pump.results.takeAll())
        await journal.flush()
        reportWritten(delivery.written.takeAll())
        notifications.finish()
    }

    /// Ends the daemon as a graceful shutdown would: stop sessions, drain beacons, return from `run()`.
    package nonisolated func stop() {
        stopInput.yield()
    }

    private func beginDrain() {
        guard !draining else { return }
        DeliveryRunner.reportDrainStarted(deliveries.queue, logger: logs.drain, notify: notify)
        endSession(draining: true)
        // What is due now still leaves within the drain timeout; what waits for a retry stays due.
        carryOut(deliveries.beginDrain(now: now()))
        finishDrainIfIdle()
    }

    private func waitForDeliveries() async {
        guard await !delivery.drains(within: configuration.drainTimeout) else { return }
        deliveries.drainTimedOut()
        DeliveryRunner.reportDrainTimedOut(inFlight: deliveries.queue.inFlightCount, logger: logs.drain, notify: notify)
    }

    /// Takes on the settings a reload may change, from the next use of each on: nothing is lost nor
    /// restarted (sessions, deliveries and the journal go on); the wait under way keeps its length.
    package func apply(_ runtime: RuntimeSettings) {
        configuration.take(runtime)
        delivery.pump.setQuiet(runtime.quiet)
        deliveries.setMaxAge(runtime.beaconMaxAge.milliseconds)
        session?.metadata.schedule.interval = runtime.metadataInterval.milliseconds
        session?.tracking.retention = runtime.retention.milliseconds
        logs = DaemonLogs(logger, debugTracking: runtime.debugTracking)
        // A shorter max age may give up a delivery waiting for its retry: the timer looks again.
        delivery.pump.timer.signal()
    }

    // MARK: Sessions

    /// The session being played, if any: the supervisor's, mutated in place.
    private var session: ActiveSession? {
        get { supervisor.activeSession }
        _modify { yield &supervisor.activeSession }
    }

    /// A session for `mediaURL` replaces the current one (or its init).
    private func requestSession(_ mediaURL: String) {
        saveSnapshot()
        perform(supervisor.load(mediaURL))
    }

    /// Ends the current session (or init) and wakes its supervisor; in-flight beacons go on. A
    /// drain ends it for good.
    private func endSession(draining: Bool = false) {
        endAdLifecycle()
        saveSnapshot()
        perform(draining ? supervisor.drain() : supervisor.unload())
    }

    /// The playback ends: the open ad and ad break are left, told before the session's end.
    private func endAdLifecycle() {
        for event in session?.adLifecycle.end() ?? [] { notify(.adLifecycle(event)) }
    }

    /// Carries out what a session transition decided, in its order.
    private func perform(_ effects: [SessionSupervisor.Effect]) {
        for effect in effects {
            sessionLog.report(effect)
            waiters.wake(for: effect, isSettled: supervisor.isSettled)
        }
    }

    private var sessionLog: SessionLog { SessionLog(logger: logs.session, announce: announce, notifications: notifications) }

    /// Returns once no session is starting (see ``SessionPhase/isSettled``). Stdin waits for this,
    /// so a recorded feed piped in at once is judged against the session's metadata instead of racing it.
    package func waitUntilSettled() async {
        guard !supervisor.isSettled else { return }
        await withCheckedContinuation { waiters.waitForSettled($0) }
    }

    /// The next init to start, the first asked for after generation `started`; nil once draining.
    func nextWantedSession(after started: Int?) async -> SessionPhase.Initializing? {
        if draining { return nil }
        if let wanted = supervisor.initToStart(after: started) { return wanted }
        return await withCheckedContinuation { waiters.waitForNextInit($0) }
    }

    /// Returns once the session of `generation` ended (at once if it has).
    func waitForSessionEnd(_ generation: Int) async {
        guard supervisor.isCurrent(generation) else { return }
        await withCheckedContinuation { waiters.waitForSessionEnd($0) }
    }

    func isCurrent(_ generation: Int) -> Bool { supervisor.isCurrent(generation) }

    /// A session starts: what its start reads of the settings.
    func sessionStarting(mediaURL: String) -> SessionRunner.Settings {
        sessionLog.starting(mediaURL: mediaURL)
        return SessionRunner.Settings(
            trackingURL: configuration.trackingURL, dialect: configuration.dialect, retention: configuration.retention.milliseconds,
            maxMetadataBytes: configuration.maxMetadataBytes)
    }

    /// A session init attempt starts: the `adsParams` of the latest load, to send.
    func initAttemptStarting(generation: Int) -> [String: String]? {
        supervisor.initAttemptStarting(generation: generation)
        return loadOptions.adsParams
    }

    /// Session init failed: when to try again, nil when the session of `generation` is no longer
    /// current or no retry can heal the failure.
    func initFailed(_ failure: SessionInitError, mediaURL: String, generation: Int) -> Milliseconds? {
        guard supervisor.isCurrent(generation) else { return nil }
        lastError = "session init: \(failure.reason)"
        notify(.sessionFailed(mediaURL: mediaURL, reason: failure.reason))
        let effects = supervisor.initFailed(failure, generation: generation, now: now(), using: &random)
        perform(effects)
        return effects.lazy.compactMap { effect -> Milliseconds? in
            if case .retryInit(_, _, _, _, let at) = effect { at } else { nil }
        }.first
    }

    /// A session saved in the journal resumes, with the reporting states its deliveries (`stored`
    /// and in memory) left its events in; false when it is no longer wanted.
    func sessionResumed(_ snapshot: SessionSnapshot, stored: [BeaconDelivery], generation: Int) -> Bool {
        let states = deliveries.reportingStates(ofSession: snapshot.endpoints.sessionKey, stored: stored)
        let resumed = TrackingSession.resuming(snapshot, states: states, retention: configuration.retention.milliseconds)
        guard sessionReady(snapshot.endpoints, tracking: resumed.session, generation: generation) else { return false }
        dispatch(resumed.due)
        return true
    }

    /// A session init succeeded, or a saved session resumes (`tracking`): false when it is no longer wanted.
    func sessionReady(_ endpoints: SessionEndpoints, tracking: TrackingSession? = nil, generation: Int) -> Bool {
        let ready = ActiveSession(
            endpoints: endpoints, tracking: tracking ?? TrackingSession(retention: configuration.retention.milliseconds),
            generation: generation, metadata: MetadataRefresh(interval: configuration.metadataInterval.milliseconds))
        let effects = supervisor.initSucceeded(ready)
        guard !effects.isEmpty else { return false }
        sessionLog.ready(endpoints, resumed: tracking != nil)
        perform(effects)
        return true
    }

    // MARK: Metadata

    /// A metadata refresh of the session of `generation` begins; nil once that session ended.
    func beginMetadataRefresh(generation: Int) -> MetadataRound? {
        guard supervisor.isCurrent(generation), let endpoints = session?.endpoints else { return nil }
        return session?.metadata.begin(trackingURL: endpoints.trackingURL, dialect: endpoints.dialect)
    }

    func metadataRequested() {
        counters.metadataFetches += 1
    }

    /// Takes what a refresh came to; returns when the next is due, nil once the session ended.
    func metadataRefreshed(_ round: MetadataRound, _ outcome: MetadataRound.Outcome, generation: Int) -> Milliseconds? {
        let instant = now()
        guard supervisor.isCurrent(generation),
            let refreshed = session?.refreshed(by: round, outcome, now: instant, wallNow: time.wallNow(), using: &random)
        else { return nil }
        var firings: [Firing] = []
        switch refreshed.result {
        case .applied(_, _, _, let fired):
            firings = fired
            pruneJournal()
        case .failed(let reason, _):
            counters.metadataErrors += 1
            lastError = "metadata: \(reason)"
        case .unchanged:
            break
        }
        MetadataPoller.report(refreshed, of: round, outcome, now: instant, logger: logs.metadata, notify: notify)
        dispatch(firings)
        saveSnapshot()
        perform(supervisor.metadataAttempted(generation: generation))
        return refreshed.nextRefreshAt
    }

    // MARK: Input

    /// A playhead tick: it fires the tracking events it played and moves the ad lifecycle; one the
    /// session refuses (on the other timeline) is a refused line.
    private func observe(_ tick: PlayheadTick, line: String, from client: InputClient) -> String? {
        let observed = session?.observe(tick, arrivalTime: now())
        if case .failure(let refusal)? = observed {
            lineRefused(refusal.reason, line: line, from: client)
            return ControlReply.errorLine(refusal.reason)
        }
        counters.ticks += 1
        lastTickAt = time.wallNow()
        guard case .success(let observed)? = observed else { return nil }
        session?.snapshotDirty = true
        for event in observed.adLifecycle { notify(.adLifecycle(event)) }
        notify(.playheadObserved(PlayheadObservation(tick: tick, contentPosition: session?.tracking.contentPosition, placement: session?.placement)))
        dispatch(observed.firings)
        return nil
    }

    /// Counts every refused line and tells the outputs; ``RefusedLineLog`` decides what is logged.
    /// `line` is the line, when it was text.
    package func lineRefused(_ reason: String, line: String?, from client: InputClient) {
        counters.badLines += 1
        refusedLines.refused(reason, line: line, from: client)
        notify(.lineRejected(reason: reason))
    }

    /// Does what one parsed input line asks; returns the reply for its sender, if it asks for one.
    /// `line` is the line as written, shown in the log if the daemon refuses it (a tick outside
    /// the session's timeline). `status` and `events` are answered by ``ControlProtocol``.
    package func perform(_ command: InputCommand, line: String, from client: InputClient) async -> String? {
        switch command {
        case .playhead(let tick):
            return observe(tick, line: line, from: client)
        case .player(let event):
            notify(.playerEventObserved(event))
            guard let firings = session?.tracking.observe(event, arrivalTime: now()) else { return nil }
            dispatch(firings)
        case .user(let action):
            notify(.userActionObserved(action))
            guard let firings = session?.tracking.observe(action) else { return nil }
            dispatch(firings)
        case .information(let information):
            notify(.playerInformed(information))
        case .load(let mediaURL, let options):
            return await load(mediaURL, options: options)
        case .unload:
            if supervisor.phase.hasSession { logs.session.info("unload") }
            endSession()
        case .status, .events, .reporter:
            // Answered outside the actor, from a snapshot, the event history and the reporters.
            break
        }
        return nil
    }

    private func load(_ mediaURL: String, options: LoadOptions) async -> String {
        guard !draining else { return ControlReply.errorLine("shutting down") }
        loadOptions = options
        endAdLifecycle()
        notify(.playbackLoaded(mediaURL: mediaURL, options: options))
        requestSession(mediaURL)
        let waitingFor = supervisor.generation
        let result = await withCheckedContinuation { waiters.waitForLoad(generation: waitingFor, $0) }
        switch result {
        case .success(let endpoints): return endpoints.announcement(resumePosition: resumePosition(options))
        case .failure(let error): return ControlReply.errorLine(error.reason)
        }
    }

    // MARK: Delivery

    /// Turns fired tracking events into deliveries, one per signaling URL, and starts what may start.
    private func dispatch(_ firings: [Firing]) {
        guard !firings.isEmpty, let session else { return }
        // Every firing of this call occurred now: what [TIMESTAMP] says, on every request of it.
        let occurredAt = time.wallNow()
        DeliveryRunner.reportFired(firings, logger: logs.beacon, notify: notify)
        let effects = deliveries.fire(
            firings, sessionKey: session.endpoints.sessionKey, macros: configuration.macros,
            context: { session.macroContext(of: $0, occurredAt: occurredAt) },
            now: now(), wallNow: occurredAt, using: &random)
        carryOut(effects)
        delivery.pump.timer.signal()
    }

    /// Carries out what the coordinator decided: counted now, with the deliveries, then written
    /// and started by ``DeliveryRunner/carryOut(_:)``, and reported by ``reportWritten(_:)``.
    private func carryOut(_ effects: DeliveryEffects) {
        counters.add(effects.counters)
        delivery.carryOut(effects)
    }

    /// What the coordinator decided, once the journal wrote it: the reporting states of finished
    /// firings go to the session, then the log and the outputs hear of it.
    private func report(_ effects: DeliveryEffects) {
        for finished in effects.finished where session?.endpoints.sessionKey == finished.sessionKey {
            session?.tracking.record(finished.state, for: finished.firing.reference)
        }
        DeliveryRunner.report(effects, quiet: configuration.quiet, logger: logs.beacon, notify: notify)
    }

    /// The delivery timer woke (or starts): reopens the journal if due, starts what is due and
    /// returns when the next retry or journal reopen is due. The wake comes with the decision, at
    /// its instant: asked at a later one, a retry falling due in between would wait forever.
    func timePassed() async -> Milliseconds? {
        await reopenJournalIfDue()
        let effects = deliveries.timePassed(now: now())
        carryOut(effects)
        return [effects.nextWake, journal.status.nextOpenTime].compactMap { $0 }.min()
    }

    /// Records what became of requests: one journal commit for the batch, with what starts next.
    /// The results that come while it is written go into the next batch.
    func record(_ batch: [(key: BeaconDelivery.Key, result: RequestResult)]) {
        guard !batch.isEmpty else { return }
        let effects = deliveries.record(batch, now: now(), wallNow: time.wallNow(), using: &random)
        carryOut(effects)
        // Only a delivery due again can bring the timer's next wake nearer.
        if effects.ended.contains(where: { $0.delivery.state == .due }) { delivery.pump.timer.signal() }
    }

    /// Reports what the journal acknowledged, in the order it was decided.
    func reportWritten(_ batch: [DeliveryEffects]) {
        for effects in batch { report(effects) }
        finishDrainIfIdle()
    }

    /// Ends the delivery loop once draining leaves no request in flight.
    private func finishDrainIfIdle() {
        guard draining, deliveries.isDrained else { return }
        delivery.finish()
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
        if !restored.isEmpty {
            logs.journal.notice("resuming \(restored.count) beacon deliveries from the journal")
        }
        carryOut(deliveries.restore(restored, now: now()))
    }

    /// After a failure: once the journal opens again, everything known is written to it.
    private func reopenJournalIfDue() async {
        guard await journal.reopenIfDue(now: now()) else { return }
        let everything = Array(deliveries.queue.deliveries.values)
        let snapshot = session.map { $0.tracking.snapshot(endpoints: $0.endpoints, savedAt: now()) }
        session?.snapshotDirty = false
        if case .success? = await journal.save(everything, session: snapshot) {
            logs.journal.notice("journal writable again: wrote \(everything.count) beacon deliveries")
        }
    }

    /// Saves the session's snapshot when playback or metadata changed since the last save.
    private func saveSnapshot() {
        guard let current = session, current.snapshotDirty else { return }
        session?.snapshotDirty = false
        journal.submit([], session: current.tracking.snapshot(endpoints: current.endpoints, savedAt: now())) { _ in }
    }

    /// Forgets finished deliveries and old sessions past retention, at most every few minutes.
    private func pruneJournal() {
        guard let cutoff = deliveries.prune(now: now(), retention: configuration.retention.milliseconds) else { return }
        journal.prune(before: cutoff)
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
        let phase = supervisor.phase
        var snapshot = DaemonSnapshot(version: configuration.version, phase: DaemonSnapshot.Phase(phase))
        snapshot.lastTickAt = lastTickAt
        snapshot.lastMetadataAt = session?.metadata.lastRefreshedAt
        snapshot.counters = counters
        snapshot.counters.journalErrors = journal.status.errors
        snapshot.counters.logLinesDropped = logLinesDropped()
        snapshot.lastError = lastError
        snapshot.initFailures = phase.initFailures
        snapshot.nextInitAt = phase.nextInitAt
        snapshot.wallOffset = time.wallOffset()
        snapshot.deliveries = deliveries.queue.deliveries
        snapshot.journal = journal.report
        return snapshot
    }
}
