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
    /// What every wait sleeps on: `ContinuousClock`, the clock of `time`'s instants.
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

    /// The session being played, once init succeeded.
    private struct ActiveSession {
        var endpoints: SessionEndpoints
        var tracking: TrackingSession
        var generation: Int
        var lastMetadataBody: [UInt8]?
        /// Whether the first metadata request has ended, well or badly.
        var metadataAttempted = false
        /// Whether playback or metadata changed since the session's snapshot was last saved.
        var snapshotDirty = false
        /// The wait before each metadata request: the interval, longer after failures.
        var metadataSchedule: RetrySchedule
        /// When the next metadata request is due; nil while one is under way.
        var nextMetadataAt: Milliseconds?
        /// MediaTailor: the `nextToken` the next refresh starts from.
        var nextToken: String?
        /// MediaTailor: program date time minus media time, from the first document that gave it.
        var programDateTimeOffset: Milliseconds?
    }

    /// A session init being retried: the failures in a row and when the next attempt is due. A
    /// network down at boot may come up any time, so init is tried again, ever less often, until
    /// it succeeds: the backoff alone sets the waits.
    private struct InitRetries {
        var schedule = RetrySchedule(interval: 0)
        var nextAttemptAt: Milliseconds?
    }

    private var session: ActiveSession?
    private var initializingURL: String?
    /// What the latest `load` gave besides its URL (MediaTailor's `adsParams`).
    private var loadOptions = LoadOptions()
    /// Why init failed for good (state `error`); a failure being retried leaves it nil.
    private var sessionError: String?
    private var initRetries = InitRetries()
    private var lastError: String?
    /// When the last tick arrived and the last metadata came, on the wall clock: only shown.
    private var lastTickAt: Milliseconds?
    private var lastMetadataAt: Milliseconds?
    private var counters = StatusReport.Counters()

    /// Bumped by every load, unload and drain: work tagged with an older generation is stale.
    private var generation = 0
    private var wantedSession: (mediaURL: String, generation: Int)?
    private var supervisorWaiter: CheckedContinuation<(mediaURL: String, generation: Int)?, Never>?
    private var sessionEndWaiter: CheckedContinuation<Void, Never>?
    private var loadWaiters: [Int: [CheckedContinuation<Result<SessionEndpoints, SessionInitError>, Never>]] = [:]
    private var settledWaiters: [CheckedContinuation<Void, Never>] = []

    private var draining = false
    /// Set when the drain timeout passed: nothing more is requested.
    private var drainTimedOut = false
    /// The occurrence of the last repeatable firing, so two in the same millisecond stay two deliveries.
    /// On the wall clock: it names the firing in the journal, across boots, and schedules nothing.
    private var lastOccurrence: Milliseconds = 0
    /// Every beacon delivery: due, in flight, and finished ones until retention prunes them.
    private var queue: DeliveryQueue
    private var retryPolicy: RetryPolicy
    private var random = SystemRandomNumberGenerator()
    private var journal: JournalAccess
    private var lastPruneAt: Milliseconds?
    /// Firings whose end was announced since the last batch of results: two of its deliveries may end in one batch.
    private var announcedFirings: Set<BeaconDelivery.Key> = []
    /// The last result of each delivery whose tracking event has not finished yet.
    private var lastResults: [BeaconDelivery.Key: BeaconSender.Result] = [:]
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
    ///   - time: the monotonic instant every schedule is counted on, and the wall clock for what is shown.
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
        wantedSession = configuration.mediaURL.map { ($0, 0) }
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
        draining = true
        logs.drain.info("draining: \(queue.inFlightCount) beacon requests in flight, \(queue.dueCount) due stay in the journal")
        notify(.drainStarted(inFlight: queue.inFlightCount))
        endSession()
        supervisorWaiter?.resume(returning: nil)
        supervisorWaiter = nil
        resumeSettledWaiters()
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
        session?.metadataSchedule.interval = runtime.metadataInterval.milliseconds
        session?.tracking.retention = runtime.retention.milliseconds
        logs = Logs(logger, debugTracking: runtime.debugTracking)
        // A shorter max age may give up a delivery waiting for its retry: the timer looks again.
        wakeup.signal()
    }

    // MARK: Sessions

    private func requestSession(_ mediaURL: String) {
        endSession()
        wantedSession = (mediaURL, generation)
        if let waiter = supervisorWaiter {
            supervisorWaiter = nil
            initializingURL = mediaURL
            waiter.resume(returning: wantedSession)
            wantedSession = nil
        }
    }

    /// Ends the current session (or init) and wakes its supervisor; in-flight beacons go on.
    private func endSession() {
        generation += 1
        saveSnapshot()
        if let session {
            logs.session.info("session ended sessionId=\(session.endpoints.sessionId ?? "-")")
            notify(.sessionEnded(sessionId: session.endpoints.sessionId))
        }
        session = nil
        lastMetadataAt = nil
        initializingURL = nil
        sessionError = nil
        initRetries = InitRetries()
        wantedSession = nil
        for waiters in loadWaiters.values {
            for waiter in waiters { waiter.resume(returning: .failure(SessionInitError(reason: "session replaced or ended before it was ready"))) }
        }
        loadWaiters = [:]
        sessionEndWaiter?.resume()
        sessionEndWaiter = nil
    }

    /// Returns once no session is starting: none was asked for, init failed (a first time: it is
    /// retried meanwhile), or the session is ready and its first metadata request has ended. Stdin
    /// waits for this, so a recorded feed piped in at once is judged against the session's metadata
    /// instead of racing it.
    public func waitUntilSettled() async {
        guard !isSettled else { return }
        await withCheckedContinuation { settledWaiters.append($0) }
    }

    private var isSettled: Bool {
        if draining { return true }
        if wantedSession != nil { return false }
        if initializingURL != nil { return initRetries.schedule.consecutiveFailures > 0 }
        return session?.metadataAttempted ?? true
    }

    private func resumeSettledWaiters() {
        guard isSettled else { return }
        for waiter in settledWaiters { waiter.resume() }
        settledWaiters = []
    }

    private func nextWantedSession() async -> (mediaURL: String, generation: Int)? {
        if draining { return nil }
        if let wanted = wantedSession {
            wantedSession = nil
            initializingURL = wanted.mediaURL
            return wanted
        }
        return await withCheckedContinuation { supervisorWaiter = $0 }
    }

    private func waitForSessionEnd(_ sessionGeneration: Int) async {
        guard sessionGeneration == generation, !draining else { return }
        await withCheckedContinuation { sessionEndWaiter = $0 }
    }

    private func superviseSessions() async {
        while let wanted = await nextWantedSession() {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.runSession(mediaURL: wanted.mediaURL, generation: wanted.generation) }
                await waitForSessionEnd(wanted.generation)
                group.cancelAll()
            }
        }
    }

    private func runSession(mediaURL: String, generation sessionGeneration: Int) async {
        logs.session.info("session starting mediaUrl=\(mediaURL)")
        notify(.sessionStarting(mediaURL: mediaURL))
        let endpoints: SessionEndpoints
        var resumed: (session: TrackingSession, due: [Firing])?
        if let snapshot = savedSession(for: mediaURL) {
            endpoints = snapshot.endpoints
            resumed = TrackingSession.resuming(
                snapshot, states: reportingStates(ofSession: endpoints.journalKey), retention: configuration.retention.milliseconds)
        } else {
            guard let initialized = await initializeSession(mediaURL: mediaURL, generation: sessionGeneration) else { return }
            endpoints = initialized
        }
        guard sessionGeneration == generation else { return }
        initializingURL = nil
        initRetries = InitRetries()
        session = ActiveSession(
            endpoints: endpoints, tracking: resumed?.session ?? TrackingSession(retention: configuration.retention.milliseconds),
            generation: sessionGeneration, snapshotDirty: true,
            metadataSchedule: RetrySchedule(interval: configuration.metadataInterval.milliseconds))
        logs.session.info(
            "session \(resumed == nil ? "ready" : "resumed from the journal") sessionId=\(endpoints.sessionId ?? "-") manifestUrl=\(endpoints.manifestUrl) trackingUrl=\(endpoints.trackingUrl)")
        announce(Self.announcement(endpoints))
        resolveLoadWaiters(sessionGeneration, with: .success(endpoints))
        notify(.sessionReady(endpoints))
        if let due = resumed?.due { dispatch(due) }
        while !Task.isCancelled, sessionGeneration == generation {
            let wait = await refreshMetadata(trackingURL: endpoints.trackingUrl, generation: sessionGeneration)
            guard sessionGeneration == generation else { return }
            saveSnapshot()
            if session?.metadataAttempted == false {
                session?.metadataAttempted = true
                resumeSettledWaiters()
            }
            session?.nextMetadataAt = now() + wait
            do { try await clock.sleep(for: .milliseconds(wait)) } catch { return }
            if sessionGeneration == generation { session?.nextMetadataAt = nil }
        }
    }

    /// Session init, tried again with backoff after each failure until it succeeds, or the session
    /// is replaced, unloaded or drained (nil then). A failure no retry can heal ends it (nil, state `error`).
    private func initializeSession(mediaURL: String, generation sessionGeneration: Int) async -> SessionEndpoints? {
        if let trackingURL = configuration.trackingURL {
            return SessionEndpoints(
                mediaUrl: mediaURL, manifestUrl: mediaURL, trackingUrl: trackingURL,
                sessionId: SessionEndpoints.sessionID(in: trackingURL) ?? SessionEndpoints.sessionID(in: mediaURL), dialect: configuration.dialect)
        }
        while true {
            let failure: SessionInitError
            do {
                return try await SessionInitializer(client: metadataClient, dialect: configuration.dialect, adsParams: loadOptions.adsParams)
                    .start(mediaURL: mediaURL)
            } catch {
                failure = error
            }
            guard sessionGeneration == generation, !Task.isCancelled,
                let wait = sessionInitFailed(mediaURL: mediaURL, failure, generation: sessionGeneration)
            else { return nil }
            do { try await clock.sleep(for: .milliseconds(wait)) } catch { return nil }
            guard sessionGeneration == generation else { return nil }
            initRetries.nextAttemptAt = nil
        }
    }

    /// Records a failed init attempt; returns the wait before the next one, nil when there is none.
    /// A `load` waiting for this session gets its reply now, saying that init goes on.
    private func sessionInitFailed(mediaURL: String, _ failure: SessionInitError, generation sessionGeneration: Int) -> Milliseconds? {
        lastError = "session init: \(failure.reason)"
        notify(.sessionFailed(mediaURL: mediaURL, reason: failure.reason))
        defer { resumeSettledWaiters() }
        guard !failure.isPermanent else {
            initializingURL = nil
            sessionError = failure.reason
            logs.session.error("session init failed, not retried mediaUrl=\(mediaURL) reason=\"\(failure.reason)\"")
            resolveLoadWaiters(sessionGeneration, with: .failure(failure))
            return nil
        }
        var random = SystemRandomNumberGenerator()
        let wait = initRetries.schedule.failed(using: &random)
        initRetries.nextAttemptAt = now() + wait
        let failures = initRetries.schedule.consecutiveFailures
        logs.session.error(
            "session init failed, retrying mediaUrl=\(mediaURL) reason=\"\(failure.reason)\" failures=\(failures) retry_in_ms=\(wait)")
        let retrying = "\(failure.reason); the daemon keeps retrying (attempt \(failures + 1) in \(UTCTime.formatSpan(wait)))"
        resolveLoadWaiters(sessionGeneration, with: .failure(SessionInitError(reason: retrying)))
        return wait
    }

    private func resolveLoadWaiters(_ sessionGeneration: Int, with result: Result<SessionEndpoints, SessionInitError>) {
        for waiter in loadWaiters.removeValue(forKey: sessionGeneration) ?? [] { waiter.resume(returning: result) }
    }

    /// The JSON line that hands the session to the player.
    static func announcement(_ endpoints: SessionEndpoints) -> String {
        struct Announcement: Encodable {
            var manifestUrl: String
            var trackingUrl: String
            var sessionId: String?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(manifestUrl, forKey: .manifestUrl)
                try container.encode(trackingUrl, forKey: .trackingUrl)
                try container.encode(sessionId, forKey: .sessionId)
            }
            enum CodingKeys: String, CodingKey { case manifestUrl, trackingUrl, sessionId }
        }
        let value = Announcement(manifestUrl: endpoints.manifestUrl, trackingUrl: endpoints.trackingUrl, sessionId: endpoints.sessionId)
        return JSONLine.encode(value)
    }

    // MARK: Metadata

    /// Requests the metadata once and applies it; returns the wait before the next request.
    private func refreshMetadata(trackingURL: String, generation sessionGeneration: Int) async -> Milliseconds {
        counters.metadataFetches += 1
        let response: HTTPClientResponse
        let requestURL = session?.nextToken.map { SessionEndpoints.page(trackingURL, nextToken: $0) } ?? trackingURL
        do {
            response = try await metadataClient.send(HTTPClientRequest(url: requestURL, maxResponseBytes: configuration.maxMetadataBytes))
        } catch {
            guard error != .cancelled, sessionGeneration == generation else { return configuration.metadataInterval.milliseconds }
            return metadataFailed(error.description)
        }
        logs.metadata.debug("metadata received status=\(response.status) bytes=\(response.body.count) url=\(trackingURL)")
        guard sessionGeneration == generation, session != nil else { return configuration.metadataInterval.milliseconds }
        guard response.isSuccess else {
            let requested = response.requestedWait(wallNow: time.wallNow())
            let asked = requested.map { " (Retry-After \(UTCTime.formatSpan($0)))" } ?? ""
            return metadataFailed("HTTP \(response.status)\(asked)", requestedWait: requested)
        }
        if session?.endpoints.dialect == nil {
            let dialect = Dialect.of(trackingDocument: response.body)
            session?.endpoints.dialect = dialect
            logs.metadata.info("dialect decided from the tracking document dialect=\(dialect.rawValue)")
        }
        if session?.endpoints.dialect == .mediatailor {
            return await refreshMediaTailor(firstPage: response, trackingURL: trackingURL, generation: sessionGeneration)
        }
        // Most refreshes repeat the last body: comparing bytes is far cheaper than decoding.
        if MetadataBody.repeats(response.body, last: session?.lastMetadataBody) {
            lastMetadataAt = time.wallNow()
            logs.metadata.debug("metadata unchanged bytes=\(response.body.count)")
            notify(.metadataUnchanged(bytes: response.body.count))
            return metadataSucceeded()
        }
        let document: MetadataDocument
        do {
            document = try MetadataDocument.decode(response.body)
        } catch {
            return metadataFailed("rejected: \(error.reason)")
        }
        session?.lastMetadataBody = response.body
        return applyMetadata(document, bytes: response.body.count)
    }

    /// Applies a document read from the metadata; returns the wait before the next request.
    private func applyMetadata(_ document: MetadataDocument, bytes: Int) -> Milliseconds {
        if let mismatch = session?.tracking.timelineMismatch(of: document) {
            return metadataFailed("rejected: \(mismatch)")
        }
        lastMetadataAt = time.wallNow()
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

    /// The most pages one MediaTailor refresh follows: a service handing out tokens without end
    /// does not hold the session's refreshes.
    static let maxMediaTailorPages = 20

    /// A MediaTailor refresh: the page that came, then each `nextToken` followed (the tracking URL
    /// with `nextToken=<token>`) until a page brings no avail not seen, no token, the same token, or
    /// ``maxMediaTailorPages``; the pages merged into one document. The next refresh starts from the
    /// last token. The document stays on media time; its program-date-time offset, remembered from
    /// the first page that gave one, maps program-date-time ticks onto it.
    private func refreshMediaTailor(firstPage: HTTPClientResponse, trackingURL: String, generation sessionGeneration: Int) async -> Milliseconds {
        var pages: [MediaTailorDocument] = []
        var bytes = 0
        var body = firstPage.body
        var token = session?.nextToken
        while true {
            let page: MediaTailorDocument
            do {
                page = try MediaTailorDocument.decode(body)
            } catch {
                return metadataFailed("rejected: \(error.reason)")
            }
            bytes += body.count
            let seen = Set(pages.flatMap(\.metadata.pods).map(\.id))
            let bringsNew = page.metadata.pods.contains { pod in !seen.contains(pod.id) }
            pages.append(page)
            guard bringsNew, pages.count < Self.maxMediaTailorPages, let next = page.nextToken, next != token else { break }
            token = next
            let url = SessionEndpoints.page(trackingURL, nextToken: next)
            counters.metadataFetches += 1
            do {
                let response = try await metadataClient.send(HTTPClientRequest(url: url, maxResponseBytes: configuration.maxMetadataBytes))
                guard sessionGeneration == generation, session != nil else { return configuration.metadataInterval.milliseconds }
                guard response.isSuccess else { return metadataFailed("HTTP \(response.status) (nextToken page)") }
                body = response.body
            } catch {
                guard error != .cancelled, sessionGeneration == generation else { return configuration.metadataInterval.milliseconds }
                return metadataFailed("\(error.description) (nextToken page)")
            }
        }
        let merged = MediaTailorDocument.merged(pages)
        session?.nextToken = merged.nextToken ?? token
        logs.metadata.debug("mediatailor pages=\(pages.count) avails=\(merged.metadata.pods.count) nextToken=\(session?.nextToken != nil)")
        var document = merged.metadata
        if document.programDateTimeOffset == nil { document.programDateTimeOffset = session?.programDateTimeOffset }
        session?.programDateTimeOffset = document.programDateTimeOffset
        guard !document.pods.isEmpty else {
            // Nothing new since the last token: what is known stands as it was.
            lastMetadataAt = time.wallNow()
            notify(.metadataUnchanged(bytes: bytes))
            return metadataSucceeded()
        }
        return applyMetadata(document, bytes: bytes)
    }

    /// A refresh brought a document (new or unchanged): back to the normal interval.
    private func metadataSucceeded() -> Milliseconds {
        session?.metadataSchedule.succeeded() ?? configuration.metadataInterval.milliseconds
    }

    /// A refresh failed: counted, logged, the previous state kept; returns the wait before the next
    /// request, longer with each failure in a row and at least what the server asked for.
    private func metadataFailed(_ reason: String, requestedWait: Milliseconds? = nil) -> Milliseconds {
        counters.metadataErrors += 1
        lastError = "metadata: \(reason)"
        var random = SystemRandomNumberGenerator()
        let wait = session?.metadataSchedule.failed(requestedWait: requestedWait, using: &random) ?? configuration.metadataInterval.milliseconds
        let failures = session?.metadataSchedule.consecutiveFailures ?? 0
        logs.metadata.warning(
            "metadata refresh failed, keeping previous state reason=\"\(reason)\" failures=\(failures) retry_in_ms=\(wait)")
        notify(.metadataFailed(reason: reason))
        return wait
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
            if session != nil || initializingURL != nil { logs.session.info("unload") }
            endSession()
            resumeSettledWaiters()
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
        let waitingFor = generation
        let result = await withCheckedContinuation { loadWaiters[waitingFor, default: []].append($0) }
        switch result {
        case .success(let endpoints): return Self.announcement(endpoints)
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
            let result = BeaconSender.Result(url: expired.key.url, outcome: .failed(.timedOut), latencyMilliseconds: 0)
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
        var updates: [(delivery: BeaconDelivery, result: BeaconSender.Result)] = []
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
    private func finished(_ delivery: BeaconDelivery, result: BeaconSender.Result) {
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
    private func logBeacon(_ result: BeaconSender.Result, of delivery: BeaconDelivery) {
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
        let phase: DaemonSnapshot.Phase
        if let session {
            phase = .ready(
                DaemonSnapshot.Session(
                    endpoints: session.endpoints, tracking: session.tracking,
                    metadataFailures: session.metadataSchedule.consecutiveFailures, nextMetadataAt: session.nextMetadataAt))
        } else if initializingURL != nil {
            phase = .initializing
        } else if let sessionError {
            phase = .failed(reason: sessionError)
        } else {
            phase = .idle
        }
        var snapshot = DaemonSnapshot(version: configuration.version, phase: phase)
        snapshot.lastTickAt = lastTickAt
        snapshot.lastMetadataAt = lastMetadataAt
        snapshot.counters = counters
        snapshot.counters.logLinesDropped = logLinesDropped()
        snapshot.lastError = lastError
        snapshot.initFailures = initRetries.schedule.consecutiveFailures
        snapshot.nextInitAt = initRetries.nextAttemptAt
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
