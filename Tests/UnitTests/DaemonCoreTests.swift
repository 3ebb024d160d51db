import Testing
@testable import BeaconDomain
@testable import BeaconTesting

/// The daemon's rules on its core, stepped by an ``EmbeddedDaemon``: no task, no wait, no real
/// time. The clock moves only when a test advances it; the journal and the ad servers answer only
/// when a test says so.
@Suite(.timeLimit(.minutes(1))) struct DaemonCoreTests {
    // The session and impression of the daemon's tests on the runtime.
    static let (t0, mediaURL, trackingURL) = (Fixture.t0, BeaconDaemonTests.mediaURL, BeaconDaemonTests.trackingURL)
    static let impression = BeaconDaemonTests.beacon
    static let endpoints = SessionEndpoints(mediaURL: mediaURL, manifestURL: mediaURL, trackingURL: trackingURL, sessionID: "s1")

    /// One ad break with one ad whose only tracking event is an impression reported to `impression`.
    static let document: MetadataDocument = {
        let event = TrackingEvent(event: .impression, startTime: t0, duration: 30_000, signalingURLs: [impression])
        let adBreak = AdBreak(id: "p", startTime: t0, duration: 30_000, ads: [Ad(id: "a", startTime: t0, duration: 30_000, trackingEvents: [event])])
        return MetadataDocument(dataRange: DataRange(start: t0 - 600_000, end: t0 + 30_000), adBreaks: [adBreak])
    }()

    static func configuration(maxAge: Duration = .seconds(900), backoff: Backoff = Backoff(base: 20, cap: 50)) -> DaemonConfiguration {
        var configuration = DaemonConfiguration(version: "test")
        configuration.mediaURL = mediaURL
        configuration.trackingURL = trackingURL
        configuration.beaconMaxAge = maxAge
        configuration.retryBackoff = backoff
        return configuration
    }

    /// A daemon playing session s1 with the document applied.
    static func playing(_ configuration: DaemonConfiguration = configuration()) -> EmbeddedDaemon {
        var daemon = EmbeddedDaemon(configuration: configuration)
        let started = daemon.startSession(endpoints)
        #expect(started)
        daemon.refresh(.document(document, bytes: 100))
        return daemon
    }

    /// Two ticks 1 s apart, on the player's clock, across the impression.
    static func playTheImpression(_ daemon: inout EmbeddedDaemon) {
        let outcomes = [
            daemon.send(#"{"playhead": \#(t0 - 500), "at": 1700000000000}"#), daemon.send(#"{"playhead": \#(t0 + 500), "at": 1700000001000}"#),
        ]
        #expect(outcomes == [.done, .done])
    }

    static func status(_ daemon: EmbeddedDaemon) -> StatusReport { StatusReport(daemon.snapshot) }

    static func impressionState(_ daemon: EmbeddedDaemon) -> ReportingState? {
        status(daemon).adBreaks.first?.ads.first?.trackingEvents.first?.reportingState
    }

    static func finished(_ daemon: EmbeddedDaemon) -> [(results: [RequestResult], state: ReportingState)] {
        daemon.notifications.compactMap { notification in
            guard case .beaconsDelivered(_, let results, let state) = notification else { return nil }
            return (results, state)
        }
    }

    static func retries(_ daemon: EmbeddedDaemon) -> Int {
        daemon.notifications.filter { if case .beaconRetrying = $0 { true } else { false } }.count
    }

    @Test func aBeaconAnswered503TwiceThen200IsDeliveredOnceAfterThreeAttempts() throws {
        var daemon = Self.playing()
        Self.playTheImpression(&daemon)
        #expect(daemon.requests.map(\.key.url) == [Self.impression])
        #expect(Self.impressionState(daemon) == .connecting)

        for _ in 1...2 {
            daemon.answer(.answered(status: 503))
            #expect(daemon.requests.isEmpty, "the retry waits for its backoff")
            let wake = try #require(daemon.nextWake)
            daemon.advance(by: wake - daemon.now)
            #expect(daemon.requests.map(\.key.url) == [Self.impression], "the retry leaves at the wake the core named")
        }
        let waiting = Self.status(daemon)
        #expect(waiting.deliveries.map(\.state) == [.inFlight])
        #expect(waiting.deliveries.first?.attempts == 3)
        #expect(waiting.deliveries.first?.lastStatus == 503)
        #expect(Self.impressionState(daemon) == .connecting)
        #expect(Self.retries(daemon) == 2)

        daemon.answer(.answered(status: 200))
        let status = Self.status(daemon)
        let delivery = try #require(status.deliveries.first)
        #expect(status.deliveries.count == 1)
        #expect(delivery.url == Self.impression && delivery.adBreakID == "p" && delivery.adID == "a" && delivery.event == .impression)
        #expect(delivery.state == .delivered && delivery.attempts == 3 && delivery.lastStatus == 200 && delivery.lastError == nil)
        #expect(status.counters.beaconsRetried == 2)
        #expect(status.counters.beaconsSent == 1)
        #expect(status.counters.beaconsFailed == 0)
        #expect(Self.impressionState(daemon) == .done)
        #expect(Self.finished(daemon).map(\.state) == [.done])
        #expect(Self.finished(daemon).first?.results.map(\.outcome) == [.answered(status: 200)])
        daemon.advance(by: 3_600_000)
        #expect(daemon.requests.isEmpty, "a delivered beacon is never sent again")
    }

    /// A retry due at T+d is not started at T+d−1, and leaves at T+d.
    @Test func aRetryLeavesNotOneMillisecondBeforeItsWake() throws {
        var daemon = Self.playing()
        Self.playTheImpression(&daemon)
        daemon.answer(.answered(status: 503))
        let wake = try #require(daemon.nextWake)
        daemon.advance(by: wake - daemon.now - 1)
        #expect(daemon.requests.isEmpty)
        daemon.advance(by: 1)
        #expect(daemon.requests.count == 1)
    }

    @Test func a404FailsAtOnceAfterOneAttempt() throws {
        var daemon = Self.playing()
        Self.playTheImpression(&daemon)
        daemon.answer(.answered(status: 404))
        let status = Self.status(daemon)
        let delivery = try #require(status.deliveries.first)
        #expect(delivery.state == .failed && delivery.attempts == 1 && delivery.lastStatus == 404)
        #expect(delivery.lastError?.contains("HTTP 404") == true)
        #expect(status.counters.beaconsFailed == 1 && status.counters.beaconsRetried == 0 && status.counters.beaconsSent == 0)
        #expect(Self.retries(daemon) == 0)
        #expect(Self.finished(daemon).map(\.state) == [.failed])
        #expect(Self.impressionState(daemon) == .failed)
        #expect(daemon.nextWake == nil)
    }

    /// Any backoff drawn from a minute passes a max age of 3 s: the retry is moved to the deadline,
    /// and its failure gives the beacon up, saying why.
    @Test func theLastAttemptIsMadeAtTheMaxAgeAndTheGiveUpSaysWhy() throws {
        var daemon = Self.playing(Self.configuration(maxAge: .seconds(3), backoff: Backoff(base: 60_000, cap: 60_000)))
        let firedAt = daemon.now
        Self.playTheImpression(&daemon)
        daemon.answer(.answered(status: 503))
        #expect(daemon.nextWake == firedAt + 3_000)
        daemon.advance(by: 3_000)
        #expect(daemon.requests.count == 1, "the last attempt, at the max age")
        daemon.answer(.answered(status: 503))
        let delivery = try #require(Self.status(daemon).deliveries.first)
        #expect(delivery.state == .failed && delivery.attempts == 2)
        let reason = delivery.lastError ?? ""
        #expect(reason.contains("gave up after 2 attempts") && reason.contains("max age") && reason.contains("HTTP 503"), "\(reason)")
        #expect(Self.finished(daemon).map(\.state) == [.failed])
    }

    /// A request leaves only once its delivery is written in flight, and its result is reported
    /// (status, the outputs) only once the journal wrote it.
    @Test func nothingLeavesBeforeItIsWrittenAndNothingIsReportedBeforeTheJournalSaysSo() throws {
        var daemon = Self.playing()
        daemon.holdsAcknowledgements = true
        Self.playTheImpression(&daemon)
        let key = try #require(daemon.journal.keys.first)
        #expect(daemon.journal[key]?.state == .inFlight, "written in flight")
        #expect(daemon.requests.isEmpty, "nothing leaves before the journal acknowledged")
        daemon.acknowledgeWrites()
        #expect(daemon.requests.map(\.key) == [key])

        daemon.answer(.answered(status: 200))
        #expect(daemon.journal[key]?.state == .delivered)
        #expect(Self.finished(daemon).isEmpty && Self.impressionState(daemon) == .connecting, "not reported before the write is acknowledged")
        daemon.acknowledgeWrites()
        #expect(Self.finished(daemon).map(\.state) == [.done])
        #expect(Self.impressionState(daemon) == .done)
    }

    /// Each tick's placement goes with it, after what it entered; the drain leaves the open ad and
    /// ad break before the session's end.
    @Test func theAdLifecycleIsToldWithEachTickAndClosedBeforeTheSessionEnds() {
        var daemon = Self.playing()
        Self.playTheImpression(&daemon)
        let placement = Self.status(daemon).adPlacement
        #expect(placement?.adBreak.id == "p" && placement?.ad?.id == "a" && placement?.offsetInAd == 500)
        daemon.beginDrain()
        let told = daemon.notifications.compactMap { notification -> String? in
            switch notification {
            case .playheadObserved(let observation): "playhead in \(observation.placement?.ad?.id ?? "-")"
            case .adLifecycle(.adBreakStarted(let adBreak)): "adBreakStarted \(adBreak.id)"
            case .adLifecycle(.adStarted(let ad)): "adStarted \(ad.id)"
            case .adLifecycle(.adCompleted(let ad)): "adCompleted \(ad.id)"
            case .adLifecycle(.adSkipped(let ad)): "adSkipped \(ad.id)"
            case .adLifecycle(.adBreakCompleted(let adBreak)): "adBreakCompleted \(adBreak.id)"
            case .sessionEnded: "sessionEnded"
            default: nil
            }
        }
        #expect(told == ["playhead in -", "adBreakStarted p", "adStarted a", "playhead in a", "adSkipped a", "adBreakCompleted p", "sessionEnded"])
    }

    /// The drain lets the request under way finish, and ends the deliveries once its result is
    /// written; what is due then still leaves, nothing starts after the drain timed out.
    @Test func theDrainEndsOnceTheLastRequestInFlightIsWritten() {
        var daemon = Self.playing()
        Self.playTheImpression(&daemon)
        daemon.beginDrain()
        #expect(!daemon.deliveriesFinished)
        #expect(daemon.notifications.contains { if case .drainStarted(inFlight: 1) = $0 { true } else { false } })
        daemon.answer(.answered(status: 204))
        #expect(daemon.deliveriesFinished)
        #expect(Self.finished(daemon).map(\.state) == [.done])
    }

    @Test func aDrainTimeoutStartsNothingMoreAndLeavesTheRetryDue() throws {
        var daemon = Self.playing()
        Self.playTheImpression(&daemon)
        daemon.answer(.answered(status: 503))
        daemon.beginDrain()
        daemon.drainTimedOut()
        daemon.advance(by: 3_600_000)
        #expect(daemon.requests.isEmpty)
        #expect(daemon.journal.values.map(\.state) == [.due], "left due for the next run")
        #expect(daemon.logLines.contains { $0.topic == .drain && $0.line.level == .warning && $0.line.message.contains("drain timeout") })
    }

    /// A tick on the other timeline than the session's is refused like a bad line: counted, logged
    /// (the log limits how often), told, and answered with its reason.
    @Test func aTickTheSessionRefusesIsARefusedLine() {
        var daemon = Self.playing()
        let outcome = daemon.send(#"{"position": 12.5}"#)
        guard case .refused(let reason) = outcome else {
            Issue.record("not refused: \(outcome)")
            return
        }
        #expect(daemon.core.counters.badLines == 1)
        #expect(daemon.core.counters.ticks == 0)
        #expect(daemon.refusedLines == [reason])
        #expect(daemon.notifications.contains { if case .lineRejected(reason) = $0 { true } else { false } })
        let unreadable = daemon.send("not a line at all")
        #expect(unreadable != .done)
        #expect(daemon.core.counters.badLines == 2)
    }

    /// A `load` ends the session and waits for the next one's init; while draining it is refused.
    @Test func aLoadWaitsForItsSessionAndIsRefusedWhileDraining() {
        var daemon = Self.playing()
        let options = LoadOptions(adsParams: ["a": "1"])
        let outcome = daemon.send(.load(mediaURL: "http://127.0.0.1:4647/other.m3u8", options: options))
        #expect(outcome == .awaitsLoad(generation: 1, options: options))
        #expect(daemon.wakes.contains(.initialize(SessionPhase.Initializing(mediaURL: "http://127.0.0.1:4647/other.m3u8", generation: 1))))
        #expect(daemon.notifications.contains { if case .sessionEnded(sessionID: "s1") = $0 { true } else { false } })
        #expect(daemon.core.loadOptions.adsParams?["a"] == "1", "the init sends the load's adsParams")
        daemon.beginDrain()
        let refused = daemon.send(.load(mediaURL: Self.mediaURL))
        #expect(refused == .refused("shutting down"))
    }

    /// A `load`'s `isInitRequest` wins over the setting for its playback's init; without one, the setting decides.
    @Test func theInitAsksWhatTheLoadOrTheSettingSays() {
        var configuration = Self.configuration()
        configuration.isInitRequest = false
        var daemon = EmbeddedDaemon(configuration: configuration)
        var core = daemon.core
        #expect(core.initAttemptStarting(generation: 0).answer == .init(adsParams: nil, isInitRequest: false))
        daemon.send(.load(mediaURL: Self.mediaURL, options: LoadOptions(adsParams: ["a": "1"], isInitRequest: true)))
        core = daemon.core
        #expect(core.initAttemptStarting(generation: 1).answer == .init(adsParams: ["a": "1"], isInitRequest: true))
        daemon.send(.load(mediaURL: Self.mediaURL))
        core = daemon.core
        #expect(core.initAttemptStarting(generation: 2).answer == .init(adsParams: nil, isInitRequest: false))
    }

    /// Init failures are retried at the instant the core names; a failure of a replaced session is dropped.
    @Test func aFailedInitIsRetriedAtTheInstantTheCoreNames() throws {
        var core = DaemonCore(configuration: Self.configuration(), random: SeededGenerator(seed: 1))
        let failed = core.initFailed(SessionInitError(reason: "HTTP 503"), mediaURL: Self.mediaURL, generation: 0, now: 1_000, wallNow: 1_000)
        let retryAt = try #require(failed.answer)
        #expect(retryAt > 1_000)
        #expect(core.lastError == "session init: HTTP 503")
        #expect(failed.actions.contains { if case .log(.session, let line) = $0 { line.level == .error } else { false } })
        let stale = core.initFailed(SessionInitError(reason: "HTTP 503"), mediaURL: Self.mediaURL, generation: 7, now: 1_000, wallNow: 1_000)
        #expect(stale.answer == nil && stale.actions.isEmpty)
    }

    /// The third init answered without a session makes the stream play as it is: ready at once,
    /// announced with `"plain": true`, settled (stdin waits for no metadata), no retry, no snapshot.
    @Test func aStreamWithoutSessionPlaysPlainAfterTheThirdAnswer() throws {
        var core = DaemonCore(configuration: Self.configuration(), random: SeededGenerator(seed: 1))
        let answered = SessionInitError(reason: "no sessid", answeredWithoutSession: true)
        for _ in 1..<SessionSupervisor.plainAfter {
            #expect(core.initFailed(answered, mediaURL: Self.mediaURL, generation: 0, now: 1_000, wallNow: 1_000).answer != nil)
        }
        let plain = core.initFailed(answered, mediaURL: Self.mediaURL, generation: 0, now: 1_000, wallNow: 1_000)
        #expect(plain.answer == nil, "no retry")
        let endpoints = try #require(core.supervisor.activeSession?.endpoints)
        #expect(endpoints.isPlain && endpoints.manifestURL == Self.mediaURL && endpoints.plainReason?.contains("no sessid") == true)
        #expect(core.supervisor.isSettled)
        let announced = plain.actions.compactMap { if case .announce(let line) = $0 { line } else { nil } }
        #expect(announced == [#"{"manifestUrl":"\#(Self.mediaURL)","plain":true,"sessionId":null,"trackingUrl":null}"#])
        #expect(plain.actions.contains { if case .wake(.replyToLoads(0, .success(endpoints)), _) = $0 { true } else { false } })
        core.session?.snapshotDirty = true
        core.saveSnapshot(now: 2_000)
        #expect(!core.actions.contains { if case .saveSnapshot = $0 { true } else { false } }, "a plain stream has nothing to resume")
    }

    @Test func aFailedRefreshIsCountedAndKeepsThePreviousSchedule() {
        var daemon = Self.playing()
        let next = daemon.refresh(.failed(reason: "HTTP 500", requestedWait: nil))
        #expect(next != nil)
        #expect(daemon.core.counters.metadataErrors == 1)
        #expect(daemon.core.lastError == "metadata: HTTP 500")
        #expect(Self.status(daemon).adBreaks.map(\.id) == ["p"])
        #expect(daemon.notifications.contains { if case .metadataFailed(reason: "HTTP 500") = $0 { true } else { false } })
    }

    /// A reload's settings count from their next use: quiet goes to the sender, the timer looks again.
    @Test func aReloadTakesTheNewSettings() {
        var daemon = Self.playing()
        let runtime = RuntimeSettings(debugTracking: true, quiet: true, metadataInterval: .seconds(7), retention: .seconds(60), beaconMaxAge: .seconds(1))
        daemon.reload(runtime)
        #expect(daemon.settings == runtime)
        #expect(daemon.core.configuration.quiet && daemon.core.configuration.beaconMaxAge == .seconds(1))
        #expect(daemon.core.deliveries.retryPolicy.maxAge == 1_000)
    }

    /// A max age shortened by a reload gives up, at the new deadline, a beacon fired after it.
    @Test func aMaxAgeReloadedGivesUpAtTheNewDeadline() throws {
        var daemon = Self.playing(Self.configuration(backoff: Backoff(base: 60_000, cap: 60_000)))
        daemon.reload(RuntimeSettings(debugTracking: false, quiet: false, metadataInterval: .seconds(3600), retention: .seconds(7200), beaconMaxAge: .seconds(3)))
        let firedAt = daemon.now
        Self.playTheImpression(&daemon)
        daemon.answer(.answered(status: 503))
        #expect(daemon.nextWake == firedAt + 3_000, "15 minutes at start, 3 s since the reload")
        daemon.advance(by: 3_000)
        daemon.answer(.answered(status: 503))
        let delivery = try #require(Self.status(daemon).deliveries.first)
        #expect(delivery.state == .failed)
        #expect(delivery.lastError?.contains("max age") == true, "\(delivery.lastError ?? "")")
    }

    /// Every schedule counts on the monotonic clock: a wall-clock step of an hour either way moves
    /// no retry and no max age, and status shows the schedule on the stepped wall clock.
    @Test(arguments: [-3_600_000, 3_600_000] as [Milliseconds])
    func aWallClockStepMovesNoDeadline(step: Milliseconds) throws {
        var daemon = Self.playing(Self.configuration(maxAge: .seconds(2), backoff: Backoff(base: 500, cap: 500)))
        Self.playTheImpression(&daemon)
        daemon.answer(.answered(status: 503))
        let wake = try #require(daemon.nextWake)
        daemon.wallOffset += step
        daemon.advance(by: wake - daemon.now)
        #expect(daemon.requests.count == 1, "the retry leaves at its monotonic instant")
        daemon.answer(.answered(status: 503))
        daemon.advance(by: 2_000)
        daemon.answer(.answered(status: 503))
        let delivery = try #require(Self.status(daemon).deliveries.first)
        #expect(delivery.state == .failed && delivery.lastError?.contains("max age") == true, "given up 2 s after it fell due")
    }

    /// Status shows the monotonic schedule on the wall clock as it reads now, stepped or not.
    @Test func statusShowsTheMonotonicTimesOnTheWallClock() throws {
        var daemon = Self.playing()
        daemon.wallOffset += 5 * 3_600_000
        Self.playTheImpression(&daemon)
        daemon.answer(.answered(status: 503), retryAfter: "30")
        let delivery = try #require(Self.status(daemon).deliveries.first)
        #expect(delivery.dueAt == daemon.wallNow)
        #expect(delivery.nextAttemptAt == daemon.wallNow + 30_000, "Retry-After: 30")
        let metadataIn = try #require(Self.status(daemon).nextMetadataAt) - daemon.wallNow
        #expect(metadataIn == 2_000, "the metadata interval, 2 s")
    }

    /// The core builds a debug line's text only when the runtime shows it.
    @Test func debugLinesAreBuiltOnlyWhenShown() {
        let built = Recorder<String>()
        let line = LogLine(.debug, { built.append("built"); return "text" }())
        #expect(built.all.isEmpty)
        #expect(line.message == "text")
        #expect(built.all == ["built"])
    }
}
