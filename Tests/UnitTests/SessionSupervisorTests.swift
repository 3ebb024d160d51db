import Testing
@testable import BeaconDomain

/// The session's lifecycle on the pure supervisor: every transition at a given instant, with a
/// generator that draws the ceiling, so each wait is known.
@Suite(.timeLimit(.minutes(2))) struct SessionSupervisorTests {
    typealias Highest = RetryScheduleTests.Highest
    static let now: Milliseconds = 1_000_000
    static let endpoints = SessionEndpoints(
        mediaURL: "http://ads.example/live.m3u8", manifestURL: "http://ads.example/live.m3u8?sessid=s1",
        trackingURL: "http://ads.example/metadata?sessid=s1", sessionID: "s1", dialect: .harmonic)

    static func session(generation: Int) -> ActiveSession {
        ActiveSession(endpoints: endpoints, tracking: TrackingSession(retention: 60_000), generation: generation, metadata: MetadataRefresh(interval: 10_000))
    }

    /// A supervisor playing the session of its first load.
    static func playing() -> SessionSupervisor {
        var supervisor = SessionSupervisor()
        _ = supervisor.load(endpoints.mediaURL)
        _ = supervisor.initSucceeded(session(generation: 1))
        return supervisor
    }

    /// The phase as status shows it.
    static func status(_ supervisor: SessionSupervisor) -> StatusReport {
        StatusReport(DaemonSnapshot(version: "test", phase: DaemonSnapshot.Phase(supervisor.phase)))
    }

    @Test func aLoadStartsTheInitOfANewGeneration() {
        var supervisor = SessionSupervisor()
        #expect(supervisor.load("http://a/1.m3u8") == [.superseded, .initialize(SessionPhase.Initializing(mediaURL: "http://a/1.m3u8", generation: 1))])
        #expect(supervisor.generation == 1)
        #expect(supervisor.initToStart(after: nil)?.mediaURL == "http://a/1.m3u8")
        #expect(supervisor.initToStart(after: 1) == nil, "an init already started is not started again")
    }

    @Test func aMediaURLGivenAtStartIsLoadedAsGenerationZero() {
        let supervisor = SessionSupervisor(mediaURL: "http://a/1.m3u8")
        #expect(supervisor.initToStart(after: nil) == SessionPhase.Initializing(mediaURL: "http://a/1.m3u8", generation: 0))
        #expect(Self.status(supervisor).state == "initializing")
    }

    @Test func aReloadReplacesTheSessionAndTheInitResultsOfTheOldGenerationAreIgnored() {
        var supervisor = SessionSupervisor()
        _ = supervisor.load("http://a/1.m3u8")
        #expect(supervisor.load("http://a/2.m3u8") == [.superseded, .initialize(SessionPhase.Initializing(mediaURL: "http://a/2.m3u8", generation: 2))])
        #expect(!supervisor.isCurrent(1) && supervisor.isCurrent(2))
        var random = Highest()
        #expect(supervisor.initFailed(SessionInitError(reason: "late"), generation: 1, now: Self.now, using: &random) == [])
        #expect(supervisor.initSucceeded(Self.session(generation: 1)) == [])
        #expect(supervisor.phase.initFailures == 0 && supervisor.phase.active == nil)
        #expect(supervisor.initSucceeded(Self.session(generation: 2)) == [.ready(Self.endpoints), .replyToLoads(generation: 2, .success(Self.endpoints))])
        #expect(supervisor.phase.active?.generation == 2)
    }

    @Test func aLoadOverAPlayedSessionEndsIt() {
        var supervisor = Self.playing()
        let effects = supervisor.load("http://a/2.m3u8")
        #expect(effects == [.ended(Self.endpoints), .superseded, .initialize(SessionPhase.Initializing(mediaURL: "http://a/2.m3u8", generation: 2))])
    }

    @Test func anUnloadEndsTheSessionAndBumpsTheGeneration() {
        var supervisor = Self.playing()
        #expect(supervisor.unload() == [.ended(Self.endpoints), .superseded, .settled])
        #expect(supervisor.generation == 2 && !supervisor.isCurrent(1))
        #expect(Self.status(supervisor).state == "idle" && supervisor.phase.active == nil)
        #expect(supervisor.initSucceeded(Self.session(generation: 1)) == [], "an init ending after its unload plays nothing")
    }

    @Test func initIsRetriedWithBackoffUntilItSucceeds() {
        var supervisor = SessionSupervisor()
        _ = supervisor.load("http://a/1.m3u8")
        var random = Highest()
        var now = Self.now
        for (failures, wait) in [(1, 1_000), (2, 2_000), (3, 4_000)] as [(Int, Milliseconds)] {
            supervisor.initAttemptStarting(generation: 1)
            #expect(supervisor.phase.nextInitAt == nil, "no attempt is pending while one is under way")
            let effects = supervisor.initFailed(SessionInitError(reason: "HTTP 503"), generation: 1, now: now, using: &random)
            let reply = "HTTP 503; the daemon keeps retrying (attempt \(failures + 1) in \(UTCTime.formatSpan(wait)))"
            #expect(effects == [
                .retryInit(mediaURL: "http://a/1.m3u8", reason: "HTTP 503", failures: failures, wait: wait, at: now + wait),
                .replyToLoads(generation: 1, .failure(SessionInitError(reason: reply))), .settled,
            ])
            #expect(supervisor.phase.initFailures == failures && supervisor.phase.nextInitAt == now + wait)
            #expect(Self.status(supervisor).state == "initializing")
            now += wait
        }
        #expect(supervisor.initSucceeded(Self.session(generation: 1)) == [.ready(Self.endpoints), .replyToLoads(generation: 1, .success(Self.endpoints))])
        #expect(supervisor.phase.initFailures == 0 && supervisor.phase.nextInitAt == nil)
    }

    /// Answers without a session, `plainAfter` attempts in a row, make the stream play as it is;
    /// a 5xx or a network error between them starts the count again.
    @Test func answersWithoutASessionInARowPlayTheStreamPlain() {
        var supervisor = SessionSupervisor()
        _ = supervisor.load("http://a/1.m3u8")
        var random = Highest()
        let answered = SessionInitError(reason: "no sessid", answeredWithoutSession: true)
        func fail(_ failure: SessionInitError) -> [SessionSupervisor.Effect] {
            supervisor.initAttemptStarting(generation: 1)
            return supervisor.initFailed(failure, generation: 1, now: Self.now, using: &random)
        }
        for _ in 1..<SessionSupervisor.plainAfter { #expect(fail(answered).first.map { if case .retryInit = $0 { true } else { false } } == true) }
        #expect(fail(SessionInitError(reason: "HTTP 503")).count == 3, "a 5xx is retried and starts the count again")
        for _ in 1..<SessionSupervisor.plainAfter { _ = fail(answered) }
        #expect(fail(answered) == [.playPlain(mediaURL: "http://a/1.m3u8", reason: "no sessid")])
        #expect(Self.status(supervisor).state == "initializing", "until the core makes the plain session ready")
    }

    @Test func aRetriedFailureRepliesThatInitGoesOn() {
        var supervisor = SessionSupervisor()
        _ = supervisor.load("http://a/1.m3u8")
        var random = Highest()
        let effects = supervisor.initFailed(SessionInitError(reason: "timed out"), generation: 1, now: Self.now, using: &random)
        #expect(effects.contains(.replyToLoads(generation: 1, .failure(SessionInitError(reason: "timed out; the daemon keeps retrying (attempt 2 in 1.0s)")))))
        #expect(Self.status(supervisor).state == "initializing")
    }

    @Test func aPermanentFailureIsStateErrorAndTheLoadIsToldSo() {
        var supervisor = SessionSupervisor()
        _ = supervisor.load("ftp://a/1.m3u8")
        var random = Highest()
        let refused = SessionInitError(reason: "media URL refused: scheme", isPermanent: true)
        #expect(supervisor.initFailed(refused, generation: 1, now: Self.now, using: &random) == [
            .gaveUp(mediaURL: "ftp://a/1.m3u8", reason: "media URL refused: scheme"), .replyToLoads(generation: 1, .failure(refused)), .settled,
        ])
        #expect(Self.status(supervisor).state == "error")
        #expect(Self.status(supervisor).lastError == "media URL refused: scheme")
        #expect(supervisor.phase.nextInitAt == nil && supervisor.phase.initFailures == 0)
        #expect(supervisor.initToStart(after: 1) == nil)
        _ = supervisor.load("http://a/2.m3u8")
        #expect(Self.status(supervisor).state == "initializing", "a new load forgets the error")
    }

    @Test func settledInEachPhase() {
        var supervisor = SessionSupervisor()
        #expect(supervisor.isSettled, "idle")
        _ = supervisor.load("http://a/1.m3u8")
        #expect(!supervisor.isSettled, "initializing, no failure yet")
        var random = Highest()
        _ = supervisor.initFailed(SessionInitError(reason: "down"), generation: 1, now: Self.now, using: &random)
        #expect(supervisor.isSettled, "init failed a first time: retried meanwhile")
        _ = supervisor.initSucceeded(Self.session(generation: 1))
        #expect(!supervisor.isSettled, "ready, its first metadata request not ended")
        #expect(supervisor.metadataAttempted(generation: 1) == [.settled])
        #expect(supervisor.isSettled)
        #expect(supervisor.metadataAttempted(generation: 1) == [], "only the first refresh settles")
        _ = supervisor.load("ftp://a/2.m3u8")
        _ = supervisor.initFailed(SessionInitError(reason: "refused", isPermanent: true), generation: 2, now: Self.now, using: &random)
        #expect(supervisor.isSettled, "failed for good")
        _ = supervisor.load("http://a/3.m3u8")
        #expect(!supervisor.isSettled)
        _ = supervisor.drain()
        #expect(supervisor.isSettled, "draining")
    }

    @Test func stateNames() {
        var supervisor = SessionSupervisor()
        #expect(Self.status(supervisor).state == "idle")
        _ = supervisor.load("http://a/1.m3u8")
        #expect(Self.status(supervisor).state == "initializing")
        _ = supervisor.initSucceeded(Self.session(generation: 1))
        #expect(Self.status(supervisor).state == "ready")
        _ = supervisor.activeSession?.tracking.observe(PlayerEvent.pause)
        #expect(Self.status(supervisor).state == "paused", "the played session's playback state")
        _ = supervisor.drain()
        #expect(Self.status(supervisor).state == "idle")
    }

    @Test func theActiveSessionIsChangedInPlace() {
        var supervisor = Self.playing()
        supervisor.activeSession?.snapshotDirty = false
        supervisor.activeSession?.endpoints.dialect = .mediatailor
        #expect(supervisor.phase.active?.snapshotDirty == false)
        #expect(supervisor.phase.active?.endpoints.dialect == .mediatailor)
        #expect(Self.status(supervisor).state != "idle")
    }

    @Test func aDrainEndsTheSessionAndStopsTheSupervisor() {
        var supervisor = Self.playing()
        #expect(supervisor.drain() == [.ended(Self.endpoints), .superseded, .stop, .settled])
        #expect(supervisor.isDraining && !supervisor.isCurrent(supervisor.generation))
        #expect(supervisor.load("http://a/2.m3u8") == [], "no session starts while draining")
        #expect(supervisor.initToStart(after: nil) == nil)
        #expect(supervisor.unload() == [] && supervisor.drain() == [])
    }

    /// An SGAI session polls no metadata: it is settled as soon as it is ready, and stdin waits no longer.
    @Test func anSGAISessionIsSettledOnceReady() {
        var supervisor = SessionSupervisor()
        _ = supervisor.load(Self.endpoints.mediaURL)
        #expect(!supervisor.isSettled)
        let endpoints = SessionEndpoints(
            mediaURL: Self.endpoints.mediaURL, manifestURL: "http://mt.example/m.m3u8?aws.sessionId=s9", trackingURL: "", sessionID: "s9",
            dialect: .mediatailor, isSGAI: true)
        let session = ActiveSession(endpoints: endpoints, tracking: TrackingSession(retention: 60_000), generation: 1, metadata: MetadataRefresh(interval: 10_000))
        #expect(supervisor.initSucceeded(session) == [.ready(endpoints), .replyToLoads(generation: 1, .success(endpoints)), .settled])
        #expect(supervisor.isSettled)
    }
}
