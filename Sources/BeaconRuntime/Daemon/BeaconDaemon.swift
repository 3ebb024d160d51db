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
/// socket, the demo's player: ``ControlProtocol`` reads their lines). `run()` supervises sessions
/// (init, then metadata polling) and delivers fired beacons until a graceful shutdown or `stop()`,
/// then drains: in-flight beacons get `drainTimeout` to finish.
public actor BeaconDaemon: Service {
    private var configuration: DaemonConfiguration
    /// Session init and metadata requests: a pool of their own, so they never wait behind beacon requests.
    private let metadataClient: any HTTPClient
    private var sender: BeaconSender
    /// What the delivery timer and the drain timeout sleep on: `ContinuousClock`, the clock of `time`'s instants.
    private let clock: any Clock<Duration>
    private let time: TimeSource
    private let announce: @Sendable (String) -> Void
    /// Where every output hears what the daemon did.
    private let notifications: DaemonNotificationHub
    private let logger: Logger
    private var logs: Logs
    private let logLinesDropped: @Sendable () -> Int
    /// Which refused lines are logged, per client.
    private var refusalLog = RefusalLogLimit()

    /// One logger per operation, so each line says what it is about.
    private struct Logs {
        /// Session init, end and unload.
        var session: Logger
        var metadata: Logger
        /// Outgoing beacons.
        var beacon: Logger
        var input: Logger
        var drain: Logger
        var journal: Logger

        /// --debug-tracking shows the debug lines of metadata and beacons whatever the log level.
        init(_ logger: Logger, debugTracking: Bool) {
            func tracking(_ logger: Logger) -> Logger {
                var shown = logger
                if debugTracking && shown.logLevel > .debug { shown.logLevel = .debug }
                return shown
            }
            session = logger.operation("session", component: "session")
            metadata = tracking(logger.operation("metadata", component: "metadata"))
            beacon = tracking(logger.operation("beacon", component: "delivery"))
            input = logger.operation("input", component: "input")
            drain = logger.operation("drain", component: "daemon")
            journal = logger.operation("journal", component: "journal")
        }
    }

    /// The session's phase (idle, initializing, error, played, draining) and its generation.
    private var supervisor: SessionSupervisor
    /// What the latest `load` gave besides its URL (MediaTailor's `adsParams`).
    private var loadOptions = LoadOptions()
    private var lastError: String?
    /// When the last tick arrived, on the wall clock: only shown.
    private var lastTickAt: Milliseconds?
    private var counters = StatusReport.Counters()

    private var supervisorWaiter: CheckedContinuation<SessionPhase.Initializing?, Never>?
    private var sessionEndWaiter: CheckedContinuation<Void, Never>?
    private var loadWaiters: [Int: [CheckedContinuation<Result<SessionEndpoints, SessionInitError>, Never>]] = [:]
    private var settledWaiters: [CheckedContinuation<Void, Never>] = []

    private var draining: Bool { supervisor.isDraining }
    /// Set when the drain timeout passed: nothing more is requested.
    private var drainTimedOut = false
    /// The occurrence of the last repeatable firing, so two in the same millisecond stay two deliveries.
    /// On the wall clock: it names the firing in the journal, across boots, and schedules nothing.
    private var lastOccurrence: Milliseconds = 0
    /// Every beacon delivery: due, in flight, and finished ones until retention prunes them.
    private var queue: DeliveryQueue
    private var retryPolicy: RetryPolicy
    /// Every random draw: backoff jitter, macros.
    private var random: any RandomNumberGenerator & Sendable
    private var journal: JournalAccess
    private var lastPruneAt: Milliseconds?
    /// Firings whose end was announced since the last batch of results: two of its deliveries may end in one batch.
    private var announcedFirings: Set<BeaconDelivery.Key> = []
    /// The last result of each delivery whose tracking event has not finished yet.
    private var lastResults: [BeaconDelivery.Key: RequestResult] = [:]
    /// Deliveries whose request may leave now, handed to the delivery loop a batch at a time.
    private let started: AsyncStream<[BeaconDelivery]>
    private let startedInput: AsyncStream<[BeaconDelivery]>.Continuation
    /// Wakes the retry timer when a retry is scheduled sooner than it sleeps.
    private let wakeup = Wakeup()
    /// Results of requests, recorded in batches: one journal commit for all that finished meanwhile.
    private let results = RequestResults()
    private let drained: AsyncStream<Void>
    private let drainedInput: AsyncStream<Void>.Continuation
    private let stopRequests: AsyncStream<Void>
    private let stopInput: AsyncStream<Void>.Continuation

    /// - Parameters:
    ///   - client: sends beacon requests.
    ///   - metadataClient: sends session init and metadata requests; give it its own connections
    ///     (a second `CurlHTTPClient`), so that beacon requests holding a host's connections never
    ///     delay a metadata refresh. Without it, `client` sends them too.
    ///   - journal: opens the durable journal of deliveries and sessions; without it the daemon
    ///     keeps everything in memory.
    ///   - time: the monotonic instant every schedule is counted on and session init and metadata
    ///     waits sleep on, and the wall clock for what is shown.
    ///   - random: every random draw (backoff jitter, macros).
    ///   - announce: receives the session's JSON line when a session is ready (stdout in `run`).
    ///   - notifications: tells its subscribers what the daemon did, as it happens.
    ///   - logLinesDropped: how many log lines stderr did not take, for status.
    package init(
        configuration: DaemonConfiguration,
        client: any HTTPClient,
        metadataClient: (any HTTPClient)? = nil,
        journal: (@Sendable () throws(JournalError) -> any BeaconJournal)? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        time: TimeSource = .system,
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        logger: Logger,
        announce: @escaping @Sendable (String) -> Void = { _ in },
        notifications: DaemonNotificationHub = DaemonNotificationHub(),
        logLinesDropped: @escaping @Sendable () -> Int = { 0 }
    ) {
        self.configuration = configuration
        self.metadataClient = metadataClient ?? client
        self.sender = BeaconSender(client: client, quiet: configuration.quiet)
        self.clock = clock
        self.time = time
        self.random = random
        self.queue = DeliveryQueue(perHostLimit: configuration.maxInFlightPerHost, totalLimit: configuration.maxInFlight)
        self.retryPolicy = RetryPolicy(backoff: configuration.retryBackoff, maxAge: configuration.beaconMaxAge.milliseconds)
        self.journal = JournalAccess(opener: journal)
        self.announce = announce
        self.notifications = notifications
        self.logger = logger
        self.logs = Logs(logger, debugTracking: configuration.debugTracking)
        self.logLinesDropped = logLinesDropped
        (started, startedInput) = AsyncStream.makeStream()
        (drained, drainedInput) = AsyncStream.makeStream()
        (stopRequests, stopInput) = AsyncStream.makeStream()
        supervisor = SessionSupervisor(mediaURL: configuration.mediaURL)
    }

    /// The monotonic instant now: what every schedule is counted on.
    private func now() -> Milliseconds { time.now() }

    private func notify(_ notification: DaemonNotification) {
        notifications.publish(notification)
    }

    // MARK: Running

    public func run() async {
        openJournal()
        await withDiscardingTaskGroup { group in
            group.addTask { await self.superviseSessions() }
            group.addTask { await self.deliverBeacons() }
            group.addTask { await self.keepTime() }
            group.addTask { await self.recordResults() }
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
        record(results.takeAll())
        notifications.finish()
    }

    /// Ends the daemon as a graceful shutdown would: stop sessions, drain beacons, return from `run()`.
    public nonisolated func stop() {
        stopInput.yield()
    }

    private func beginDrain() {
        guard !draining else { return }
        logs.drain.info("draining: \(queue.inFlightCount) beacon requests in flight, \(queue.dueCount) due stay in the journal")
        notify(.drainStarted(inFlight: queue.inFlightCount))
        endSession(draining: true)
        // What is due now still leaves within the drain timeout; what waits for a retry stays due.
        startDeliveries()
        finishDrainIfIdle()
    }

    private func waitForDeliveries() async {
        let timeout = configuration.drainTimeout
        let finished = await withTaskGroup(of: Bool.self) { race in
            race.addTask {
                for await _ in self.drained {}
                return true
            }
            race.addTask { [clock] in
                try? await clock.sleep(for: timeout)
                return false
            }
            let first = await race.next() ?? true
            race.cancelAll()
            return first
        }
        if !finished {
            drainTimedOut = true
            logs.drain.warning("drain timeout: cancelling \(queue.inFlightCount) beacon requests still in flight; they stay due in the journal")
            notify(.drainTimedOut(inFlight: queue.inFlightCount))
        }
    }

    /// Takes on the settings a reload may change, from the next use of each on: nothing is lost nor
    /// restarted (sessions, deliveries and the journal go on); the wait under way keeps its length.
    public func apply(_ runtime: RuntimeSettings) {
        configuration.debugTracking = runtime.debugTracking
        configuration.quiet = runtime.quiet
        configuration.metadataInterval = runtime.metadataInterval
        configuration.retention = runtime.retention
        configuration.beaconMaxAge = runtime.beaconMaxAge
        sender.quiet = runtime.quiet
        retryPolicy.maxAge = runtime.beaconMaxAge.milliseconds
        session?.metadata.schedule.interval = runtime.metadataInterval.milliseconds
        session?.tracking.retention = runtime.retention.milliseconds
        logs = Logs(logger, debugTracking: runtime.debugTracking)
        // A shorter max age may give up a delivery waiting for its retry: the timer looks again.
        wakeup.signal()
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
        saveSnapshot()
        perform(draining ? supervisor.drain() : supervisor.unload())
    }

    /// Carries out what a session transition decided, in its order.
    private func perform(_ effects: [SessionSupervisor.Effect]) {
        for effect in effects {
            switch effect {
            case .ended(let endpoints):
                logs.session.info("session ended sessionId=\(endpoints.sessionId ?? "-")")
                notify(.sessionEnded(sessionId: endpoints.sessionId))
            case .superseded:
                let replaced = SessionInitError(reason: SessionSupervisor.supersededReason)
                for waiters in loadWaiters.values {
                    for waiter in waiters { waiter.resume(returning: .failure(replaced)) }
                }
                loadWaiters = [:]
                sessionEndWaiter?.resume()
                sessionEndWaiter = nil
            case .initialize(let wanted):
                supervisorWaiter?.resume(returning: wanted)
                supervisorWaiter = nil
            case .retryInit(let mediaURL, let reason, let failures, let wait, _):
                logs.session.error("session init failed, retrying mediaUrl=\(mediaURL) reason=\"\(reason)\" failures=\(failures) retry_in_ms=\(wait)")
            case .gaveUp(let mediaURL, let reason):
                logs.session.error("session init failed, not retried mediaUrl=\(mediaURL) reason=\"\(reason)\"")
            case .ready(let endpoints):
                announce(endpoints.announcement)
                notify(.sessionReady(endpoints))
            case .replyToLoads(let generation, let result):
                for waiter in loadWaiters.removeValue(forKey: generation) ?? [] { waiter.resume(returning: result) }
            case .settled:
                resumeSettledWaiters()
            case .stop:
                supervisorWaiter?.resume(returning: nil)
                supervisorWaiter = nil
            }
        }
    }

    /// Returns once no session is starting (see ``SessionPhase/isSettled``). Stdin waits for this,
    /// so a recorded feed piped in at once is judged against the session's metadata instead of racing it.
    public func waitUntilSettled() async {
        guard !supervisor.isSettled else { return }
        await withCheckedContinuation { settledWaiters.append($0) }
    }

    private func resumeSettledWaiters() {
        guard supervisor.isSettled else { return }
        for waiter in settledWaiters { waiter.resume() }
        settledWaiters = []
    }

    /// The next init to start, the first asked for after generation `started`; nil once draining.
    private func nextWantedSession(after started: Int?) async -> SessionPhase.Initializing? {
        if draining { return nil }
        if let wanted = supervisor.initToStart(after: started) { return wanted }
        return await withCheckedContinuation { supervisorWaiter = $0 }
    }

    private func waitForSessionEnd(_ generation: Int) async {
        guard supervisor.isCurrent(generation) else { return }
        await withCheckedContinuation { sessionEndWaiter = $0 }
    }

    private func superviseSessions() async {
        var started: Int?
        while let wanted = await nextWantedSession(after: started) {
            started = wanted.generation
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.runSession(mediaURL: wanted.mediaURL, generation: wanted.generation) }
                await waitForSessionEnd(wanted.generation)
                group.cancelAll()
            }
        }
    }

    private func runSession(mediaURL: String, generation: Int) async {
        logs.session.info("session starting mediaUrl=\(mediaURL)")
        notify(.sessionStarting(mediaURL: mediaURL))
        let endpoints: SessionEndpoints
        var resumed: (session: TrackingSession, due: [Firing])?
        if let snapshot = savedSession(for: mediaURL) {
            endpoints = snapshot.endpoints
            resumed = TrackingSession.resuming(
                snapshot, states: reportingStates(ofSession: endpoints.journalKey), retention: configuration.retention.milliseconds)
        } else {
            guard let initialized = await initializeSession(mediaURL: mediaURL, generation: generation) else { return }
            endpoints = initialized
        }
        let ready = ActiveSession(
            endpoints: endpoints, tracking: resumed?.session ?? TrackingSession(retention: configuration.retention.milliseconds),
            generation: generation, metadata: MetadataRefresh(interval: configuration.metadataInterval.milliseconds))
        let effects = supervisor.initSucceeded(ready)
        guard !effects.isEmpty else { return }
        logs.session.info(
            "session \(resumed == nil ? "ready" : "resumed from the journal") sessionId=\(endpoints.sessionId ?? "-") manifestUrl=\(endpoints.manifestUrl) trackingUrl=\(endpoints.trackingUrl)")
        perform(effects)
        if let due = resumed?.due { dispatch(due) }
        await MetadataPoller(client: metadataClient, time: time, maxResponseBytes: configuration.maxMetadataBytes).run(
            begin: { await self.beginMetadataRefresh(generation: generation) },
            requesting: { await self.metadataRequested() },
            finished: { round, outcome in await self.metadataRefreshed(round, outcome, generation: generation) })
    }

    /// Session init, tried again with backoff after each failure until it succeeds, or the session
    /// is replaced, unloaded or drained (nil then). A failure no retry can heal ends it (nil, state `error`).
    private func initializeSession(mediaURL: String, generation: Int) async -> SessionEndpoints? {
        if let trackingURL = configuration.trackingURL {
            return SessionEndpoints(
                mediaUrl: mediaURL, manifestUrl: mediaURL, trackingUrl: trackingURL,
                sessionId: SessionEndpoints.sessionID(in: trackingURL) ?? SessionEndpoints.sessionID(in: mediaURL), dialect: configuration.dialect)
        }
        while true {
            supervisor.initAttemptStarting(generation: generation)
            let failure: SessionInitError
            do {
                return try await SessionInitializer(client: metadataClient, dialect: configuration.dialect, adsParams: loadOptions.adsParams)
                    .start(mediaURL: mediaURL)
            } catch {
                failure = error
            }
            guard supervisor.isCurrent(generation), !Task.isCancelled else { return nil }
            lastError = "session init: \(failure.reason)"
            notify(.sessionFailed(mediaURL: mediaURL, reason: failure.reason))
            let effects = supervisor.initFailed(failure, generation: generation, now: now(), using: &random)
            perform(effects)
            let retryAt = effects.lazy.compactMap { effect -> Milliseconds? in
                if case .retryInit(_, _, _, _, let at) = effect { at } else { nil }
            }.first
            guard let retryAt else { return nil }
            do { try await time.sleep(until: retryAt) } catch { return nil }
            guard supervisor.isCurrent(generation) else { return nil }
        }
    }

    // MARK: Metadata

    /// A metadata refresh of the session of `generation` begins; nil once that session ended.
    private func beginMetadataRefresh(generation: Int) -> MetadataRound? {
        guard supervisor.isCurrent(generation), let endpoints = session?.endpoints else { return nil }
        return session?.metadata.begin(trackingURL: endpoints.trackingUrl, dialect: endpoints.dialect)
    }

    private func metadataRequested() {
        counters.metadataFetches += 1
    }

    /// Takes what a refresh came to; returns when the next is due, nil once the session ended.
    private func metadataRefreshed(_ round: MetadataRound, _ outcome: MetadataRound.Outcome, generation: Int) -> Milliseconds? {
        // A request is cancelled only when its session ends.
        guard supervisor.isCurrent(generation), session != nil, outcome != .cancelled else { return nil }
        if let first = round.firstAnswer {
            logs.metadata.debug("metadata received status=\(first.status) bytes=\(first.bytes) url=\(round.trackingURL)")
        }
        if session?.endpoints.dialect == nil, let dialect = round.dialect {
            session?.endpoints.dialect = dialect
            logs.metadata.info("dialect decided from the tracking document dialect=\(dialect.rawValue)")
        }
        session?.metadata.remember(round)
        let nextRefreshAt: Milliseconds
        switch outcome {
        case .unchanged(let bytes):
            if round.dialect == .mediatailor {
                logs.metadata.debug("mediatailor pages=\(round.pageCount) avails=0 nextToken=\(round.nextToken != nil)")
            } else {
                logs.metadata.debug("metadata unchanged bytes=\(bytes)")
            }
            notify(.metadataUnchanged(bytes: bytes))
            nextRefreshAt = metadataSucceeded()
        case .document(let document, let bytes):
            if round.dialect == .mediatailor {
                logs.metadata.debug("mediatailor pages=\(round.pageCount) avails=\(document.pods.count) nextToken=\(round.nextToken != nil)")
            }
            nextRefreshAt = applyMetadata(document, bytes: bytes)
        case .failed(let reason, let requestedWait):
            nextRefreshAt = metadataFailed(reason, requestedWait: requestedWait)
        case .cancelled:
            return nil
        }
        saveSnapshot()
        perform(supervisor.metadataAttempted(generation: generation))
        return nextRefreshAt
    }

    /// Applies a document read from the metadata; returns when the next refresh is due.
    private func applyMetadata(_ document: MetadataDocument, bytes: Int) -> Milliseconds {
        if let mismatch = session?.tracking.timelineMismatch(of: document) {
            return metadataFailed("rejected: \(mismatch)")
        }
        var known = Set(session?.tracking.schedule.pods.map(\.id) ?? [])
        let discovered = document.pods.map(\.id).filter { known.insert($0).inserted }
        // Mutated in place: a copy would share, then duplicate, the whole schedule.
        let firings = session?.tracking.apply(document) ?? []
        session?.snapshotDirty = true
        pruneJournal()
        logs.metadata.info(
            "metadata refreshed adBreaks=\(document.pods.count) dataRange=\(document.timeline.format(document.dataRange.start))..\(document.timeline.format(document.dataRange.end)) bytes=\(bytes)")
        notify(.metadataApplied(pods: document.pods.count, dataRange: document.dataRange, bytes: bytes))
        if !discovered.isEmpty { notify(.adBreaksDiscovered(podIDs: discovered)) }
        dispatch(firings)
        return metadataSucceeded()
    }

    /// A refresh brought a document (new or unchanged): back to the normal interval.
    private func metadataSucceeded() -> Milliseconds {
        session?.metadata.succeeded(now: now(), wallNow: time.wallNow()) ?? now()
    }

    /// A refresh failed: counted, logged, the previous state kept; returns when the next refresh is
    /// due, later with each failure in a row and no sooner than the server asked.
    private func metadataFailed(_ reason: String, requestedWait: Milliseconds? = nil) -> Milliseconds {
        counters.metadataErrors += 1
        lastError = "metadata: \(reason)"
        let time = now()
        let nextRefreshAt = session?.metadata.failed(requestedWait: requestedWait, now: time, using: &random) ?? time
        let failures = session?.metadata.schedule.consecutiveFailures ?? 0
        logs.metadata.warning(
            "metadata refresh failed, keeping previous state reason=\"\(reason)\" failures=\(failures) retry_in_ms=\(nextRefreshAt - time)")
        notify(.metadataFailed(reason: reason))
        return nextRefreshAt
    }

    // MARK: Input

    /// Does what one parsed input line asks; returns the reply for its sender, if it asks for one.
    /// `line` is the line as written, shown in the log if the daemon refuses it (a tick outside
    /// the session's timeline). `status` and `events` are answered by ``ControlProtocol``.
    package func perform(_ command: InputCommand, line: String, from client: InputClient) async -> String? {
        if case .playhead(let tick) = command, let session, case .failure(let error) = session.tracking.placed(tick) {
            lineRefused(error.reason, line: line, from: client)
            return ControlReply.errorLine(error.reason)
        }
        return await execute(command)
    }

    /// Counts every refused line; logs only the first few of each client each second (see
    /// ``RefusalLogLimit``). `line` is the line, when it was text.
    package func lineRefused(_ reason: String, line: String?, from client: InputClient) {
        counters.badLines += 1
        let verdict = refusalLog.refused(by: client, at: time.now())
        logUnloggedRefusals(verdict.unloggedBefore, of: client)
        if verdict.logged {
            let shown = line.map { " line=\"\(Self.printable($0))\"" } ?? ""
            logs.input.warning("bad input line ignored reason=\"\(reason)\"\(shown) client=\(client)")
        }
        notify(.lineRejected(reason: reason))
    }

    /// A client's input ended (its connection closed, or stdin): the count of its refused lines not logged yet.
    public func inputEnded(from client: InputClient) {
        logUnloggedRefusals(refusalLog.left(client), of: client)
    }

    private func logUnloggedRefusals(_ count: Int, of client: InputClient) {
        guard count > 0 else { return }
        logs.input.warning("bad input lines not logged, over \(RefusalLogLimit.perSecond) a second client=\(client) count=\(count)")
    }

    private func execute(_ command: InputCommand) async -> String? {
        switch command {
        case .playhead(let tick):
            counters.ticks += 1
            let arrivalTime = now()
            lastTickAt = time.wallNow()
            guard let firings = session?.tracking.observe(tick, arrivalTime: arrivalTime) else { return nil }
            session?.snapshotDirty = true
            dispatch(firings)
        case .player(let event):
            guard let firings = session?.tracking.observe(event, arrivalTime: now()) else { return nil }
            dispatch(firings)
        case .user(let action):
            guard let firings = session?.tracking.observe(action) else { return nil }
            dispatch(firings)
        case .load(let mediaURL, let options):
            return await load(mediaURL, options: options)
        case .unload:
            if supervisor.phase.hasSession { logs.session.info("unload") }
            endSession()
        case .status, .events:
            // Answered outside the actor, from a snapshot and the event history.
            break
        }
        return nil
    }

    private func load(_ mediaURL: String, options: LoadOptions) async -> String {
        guard !draining else { return ControlReply.errorLine("shutting down") }
        loadOptions = options
        requestSession(mediaURL)
        let waitingFor = supervisor.generation
        let result = await withCheckedContinuation { loadWaiters[waitingFor, default: []].append($0) }
        switch result {
        case .success(let endpoints): return endpoints.announcement
        case .failure(let error): return ControlReply.errorLine(error.reason)
        }
    }

    /// A line as it may be logged: bounded, control characters escaped.
    static func printable(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(120) {
            shown += scalar.value < 0x20 || scalar == "\"" || scalar == "\\" ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return text.unicodeScalars.count > 120 ? shown + "…" : shown
    }

    // MARK: Delivery

    /// Turns fired tracking events into deliveries, one per signaling URL, and starts what may start.
    private func dispatch(_ firings: [Firing]) {
        guard !firings.isEmpty, let sessionKey = session?.endpoints.journalKey else { return }
        let time = now()
        // Every firing of this call occurred now: what [TIMESTAMP] says, on every request of it.
        let occurredAt = self.time.wallNow()
        var added: [BeaconDelivery] = []
        for firing in firings {
            logs.beacon.debug("firing pod=\(firing.podID) ad=\(firing.adID) event=\(firing.event) urls=\(firing.signalingUrls.count)")
            notify(.beaconsDue(firing))
            guard !firing.signalingUrls.isEmpty else {
                session?.tracking.record(.done, for: firing.reference)
                notify(.beaconsDelivered(firing, results: [], state: .done))
                continue
            }
            // An event that fires once is one delivery per URL for good; a repeatable one is a new one each time.
            var occurrence: Milliseconds = 0
            if !firing.event.firesOnce {
                lastOccurrence = max(self.time.wallNow(), lastOccurrence + 1)
                occurrence = lastOccurrence
            }
            let context = macroContext(of: firing, occurredAt: occurredAt)
            for url in firing.signalingUrls {
                let key = BeaconDelivery.Key(
                    sessionID: sessionKey, podID: firing.podID, adID: firing.adID, event: firing.event, eventStart: firing.eventStart,
                    url: url, occurrence: occurrence)
                guard queue.deliveries[key] == nil else { continue }
                // Expanded once, here: the delivery is journaled with this URL and every request sends it.
                let sentURL = MacroExpansion.expand(url, context: context, settings: configuration.macros, using: &random)
                let delivery = BeaconDelivery(key: key, sentURL: sentURL, reference: firing.reference, dueAt: time)
                if queue.add(delivery) { added.append(delivery) }
            }
        }
        startDeliveries(saving: added)
        wakeup.signal()
    }

    /// What the macros of a firing's signaling URLs are filled from.
    private func macroContext(of firing: Firing, occurredAt: Milliseconds) -> MacroContext {
        guard let session else { return MacroContext(occurredAt: occurredAt) }
        let tracking = session.tracking
        // A session whose first document has not come yet counts as live, as every session did before timelines.
        return MacroContext(
            firing, in: tracking.schedule, timeline: tracking.timeline ?? .programDateTime, dataRange: tracking.dataRange,
            playhead: tracking.judge.lastPlayhead, occurredAt: occurredAt, contentPosition: tracking.contentPosition)
    }

    /// Starts every delivery that may start now. Each is on disk, with `extra`, before its request leaves.
    private func startDeliveries(saving extra: [BeaconDelivery] = []) {
        let time = now()
        var changed = extra
        for expired in queue.expire(dueBefore: retryPolicy.expiryCutoff(now: time), now: time, reason: "beacon max age passed before it could be sent") {
            changed.append(expired)
            let result = RequestResult(url: expired.key.url, outcome: .failed(.timedOut), latencyMilliseconds: 0)
            logBeacon(result, of: expired)
            finished(expired, result: result)
        }
        let starting = drainTimedOut ? [] : queue.start(now: time)
        // A delivery that became due and starts in this same commit is written once, in flight.
        let startingKeys = changed.isEmpty ? [] : Set(starting.map(\.key))
        write(changed.filter { !startingKeys.contains($0.key) } + starting)
        for delivery in starting {
            if delivery.attempts > 1 { counters.beaconsRetried += 1 }
            if delivery.resend { counters.beaconsResent += 1 }
            logs.beacon.debug(
                "BEACON requesting pod=\(delivery.key.podID) ad=\(delivery.key.adID) event=\(delivery.key.event) url=\(delivery.key.url) attempt=\(delivery.attempts) quiet=\(configuration.quiet)")
        }
        if !starting.isEmpty { startedInput.yield(starting) }
    }

    /// Requests each batch of started deliveries in a task of its own, the whole batch in one hand-over.
    private func deliverBeacons() async {
        await withDiscardingTaskGroup { group in
            for await batch in started {
                let sender = sender
                group.addTask {
                    await sender.send(batch.map(\.sentURL)) { index, result in
                        // Reported under the URL as in the metadata: the one logs and history show, never an expanded [IFA].
                        var reported = result
                        reported.url = batch[index].key.url
                        self.results.add(reported, of: batch[index].key)
                    }
                }
            }
        }
    }

    /// Sleeps until the next retry or journal reopen is due, or until woken by new work, then starts what is due.
    private func keepTime() async {
        while !Task.isCancelled {
            let wait = nextWakeTime().map { Duration.milliseconds(max($0 - now(), 0)) }
            await wakeup.wait(for: wait, clock: clock)
            guard !Task.isCancelled else { return }
            reopenJournalIfDue()
            startDeliveries()
        }
    }

    private func nextWakeTime() -> Milliseconds? {
        [queue.nextAttempt(after: now()), journal.nextOpenTime].compactMap { $0 }.min()
    }

    private func recordResults() async {
        while !Task.isCancelled {
            record(await results.next())
        }
    }

    /// Records what became of requests: one journal commit for the batch, with what starts next.
    private func record(_ batch: [RequestResults.Entry]) {
        guard !batch.isEmpty else { return }
        announcedFirings = []
        let time = now()
        var updates: [(delivery: BeaconDelivery, result: RequestResult)] = []
        for (key, result) in batch {
            let updated: BeaconDelivery?
            if case .failed(.cancelled) = result.outcome {
                updated = queue.interrupt(key, now: time)
            } else if let current = queue.deliveries[key] {
                let verdict = retryPolicy.verdict(on: result, of: current, now: time, wallNow: self.time.wallNow(), using: &random)
                updated = queue.finish(key, verdict: verdict, result: result, now: time)
            } else {
                updated = nil
            }
            if let updated { updates.append((updated, result)) }
        }
        // Delivered (or given up) is on disk before status says so.
        startDeliveries(saving: updates.map(\.delivery))
        for (delivery, result) in updates {
            logBeacon(result, of: delivery)
            if delivery.state == .due, !draining { notify(.beaconRetrying(delivery)) }
            if delivery.state.isFinished { finished(delivery, result: result) }
        }
        // Only a delivery due again can bring the timer's next wake nearer.
        if updates.contains(where: { $0.delivery.state == .due }) { wakeup.signal() }
        finishDrainIfIdle()
    }

    /// Ends the delivery loop once draining leaves no request in flight.
    private func finishDrainIfIdle() {
        guard draining, queue.inFlightCount == 0 else { return }
        startedInput.finish()
        drainedInput.finish()
    }

    /// A delivery ended: when its tracking event's last one has, the event gets its reporting state.
    private func finished(_ delivery: BeaconDelivery, result: RequestResult) {
        switch delivery.state {
        case .delivered: if result.outcome != .notSent { counters.beaconsSent += 1 }
        case .failed: counters.beaconsFailed += 1
        case .due, .inFlight: return
        }
        lastResults[delivery.key] = result
        let siblings = queue.deliveries(sharingFiringWith: delivery.key)
        guard siblings.allSatisfy(\.state.isFinished), announcedFirings.insert(DeliveryQueue.firingKey(of: delivery.key)).inserted else {
            return
        }
        let state = ReportingState(deliveries: siblings)
        if session?.endpoints.journalKey == delivery.key.sessionID {
            session?.tracking.record(state, for: delivery.reference)
        }
        let ordered = siblings.sorted { $0.key.url < $1.key.url }
        let results = ordered.compactMap { lastResults.removeValue(forKey: $0.key) }
        let firing = Firing(
            reference: delivery.reference, podID: delivery.key.podID, adID: delivery.key.adID, event: delivery.key.event,
            eventStart: delivery.key.eventStart, signalingUrls: ordered.map(\.key.url))
        notify(.beaconsDelivered(firing, results: results, state: state))
    }

    // MARK: Journal

    private func openJournal() {
        guard journal.isConfigured else { return }
        switch journal.open(now: now()) {
        case .failure(let error):
            counters.journalErrors += 1
            logs.journal.error("journal unavailable, keeping deliveries in memory only reason=\"\(error.reason)\"")
        case .success:
            let restored = journal.use(now: now()) { journal throws(JournalError) in try journal.unfinishedDeliveries() }
            guard case .success(let deliveries)? = restored else { return journalFailed(restored) }
            for delivery in deliveries { queue.add(delivery) }
            if !deliveries.isEmpty {
                logs.journal.notice("resuming \(deliveries.count) beacon deliveries from the journal")
            }
            startDeliveries()
        }
    }

    /// After a failure: once the journal opens again, everything known is written to it.
    private func reopenJournalIfDue() {
        let time = now()
        guard journal.mayOpen(now: time) else { return }
        guard case .success = journal.open(now: time) else {
            counters.journalErrors += 1
            return
        }
        let everything = Array(queue.deliveries.values)
        write(everything)
        saveSnapshot(force: true)
        if journal.problem == nil {
            logs.journal.notice("journal writable again: wrote \(everything.count) beacon deliveries")
        }
    }

    private func write(_ deliveries: [BeaconDelivery], session snapshot: SessionSnapshot? = nil) {
        guard !deliveries.isEmpty || snapshot != nil else { return }
        let written = journal.use(now: now()) { journal throws(JournalError) in try journal.save(deliveries, session: snapshot) }
        journalFailed(written)
    }

    private func journalFailed<Value>(_ result: Result<Value, JournalError>?) {
        guard case .failure(let error)? = result else { return }
        counters.journalErrors += 1
        logs.journal.error(
            "journal write failed, keeping deliveries in memory and retrying in \(JournalAccess.reopenInterval / 1000) s reason=\"\(error.reason)\"")
        wakeup.signal()
    }

    /// Saves the session's snapshot when playback or metadata changed since the last save.
    private func saveSnapshot(force: Bool = false) {
        guard let current = session, current.snapshotDirty || force else { return }
        let time = now()
        session?.snapshotDirty = false
        write([], session: current.tracking.snapshot(endpoints: current.endpoints, savedAt: time))
    }

    /// A saved session to resume for this media URL, if the journal has one within retention.
    private func savedSession(for mediaURL: String) -> SessionSnapshot? {
        let time = now()
        let sessionID = SessionEndpoints.sessionID(in: mediaURL)
        let found = journal.use(now: time) { journal throws(JournalError) in
            try journal.session(sessionID: sessionID, mediaURL: mediaURL, savedSince: time - configuration.retention.milliseconds)
        }
        journalFailed(found)
        guard case .success(let snapshot?)? = found else { return nil }
        return snapshot
    }

    /// The reporting states that a session's deliveries, in memory and in the journal, leave its events in.
    private func reportingStates(ofSession sessionKey: String) -> [EventReference: ReportingState] {
        let stored = journal.use(now: now()) { journal throws(JournalError) in try journal.deliveries(ofSession: sessionKey) }
        journalFailed(stored)
        var deliveries: [BeaconDelivery.Key: BeaconDelivery] = [:]
        if case .success(let rows)? = stored { for row in rows { deliveries[row.key] = row } }
        for (key, delivery) in queue.deliveries where key.sessionID == sessionKey { deliveries[key] = delivery }
        // The latest firing of each event decides its state.
        let latest = Dictionary(grouping: deliveries.values, by: \.reference).mapValues { group in
            let occurrence = group.map(\.key.occurrence).max()
            return ReportingState(deliveries: group.filter { $0.key.occurrence == occurrence })
        }
        return latest
    }

    /// Forgets finished deliveries and old sessions past retention, at most every few minutes.
    private func pruneJournal() {
        let time = now()
        if let lastPruneAt, time - lastPruneAt < 5 * 60_000 { return }
        lastPruneAt = time
        let cutoff = time - configuration.retention.milliseconds
        queue.prune(finishedBefore: cutoff)
        journalFailed(journal.use(now: time) { journal throws(JournalError) in try journal.prune(before: cutoff) })
    }

    /// One greppable `BEACON` line per request, always with pod, ad, event, URL, status and latency
    /// (`-` when there was no HTTP answer), and the attempt and reason when it did not deliver.
    private func logBeacon(_ result: RequestResult, of delivery: BeaconDelivery) {
        let key = delivery.key
        var line = "pod=\(key.podID) ad=\(key.adID) event=\(key.event) url=\(key.url)"
        if case .answered(let status) = result.outcome {
            line += " status=\(status)"
        } else {
            line += " status=-"
        }
        line += " latency_ms=\(result.latencyMilliseconds) attempt=\(delivery.attempts)"
        if delivery.resend { line += " resend=true" }
        let reason = delivery.lastError.map { " reason=\"\($0)\"" } ?? ""
        switch (delivery.state, result.outcome) {
        case (_, .notSent):
            logs.beacon.info("BEACON not sent (quiet) \(line)")
        case (.delivered, _):
            logs.beacon.info("BEACON sent \(line)")
        case (.due, _), (.inFlight, _):
            let next = max(delivery.nextAttemptAt - now(), 0)
            logs.beacon.warning("BEACON retrying \(line) next_attempt_in_ms=\(next)\(reason)")
        case (.failed, .refused):
            logs.beacon.warning("BEACON refused \(line)\(reason)")
        case (.failed, _):
            logs.beacon.warning("BEACON failed \(line)\(reason)")
        }
    }

    // MARK: Status

    /// What the daemon knows and did, for `status`: ``StatusReport/init(_:)`` reads it.
    package func snapshot() -> DaemonSnapshot {
        let phase = supervisor.phase
        var snapshot = DaemonSnapshot(version: configuration.version, phase: DaemonSnapshot.Phase(phase))
        snapshot.lastTickAt = lastTickAt
        snapshot.lastMetadataAt = session?.metadata.lastRefreshedAt
        snapshot.counters = counters
        snapshot.counters.logLinesDropped = logLinesDropped()
        snapshot.lastError = lastError
        snapshot.initFailures = phase.initFailures
        snapshot.nextInitAt = phase.nextInitAt
        snapshot.wallOffset = time.wallOffset()
        snapshot.deliveries = queue.deliveries
        snapshot.journal = journalReport()
        return snapshot
    }

    private func journalReport() -> StatusReport.Journal {
        guard journal.isConfigured else { return StatusReport.Journal(state: .off) }
        return journal.problem.map { StatusReport.Journal(state: .unavailable, error: $0) } ?? StatusReport.Journal(state: .ok)
    }
}
