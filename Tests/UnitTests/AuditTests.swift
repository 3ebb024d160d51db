import Testing
@testable import BeaconDomain
@testable import BeaconTesting

/// The audit's decisions on the daemon's core, stepped by an ``EmbeddedDaemon`` on a clock only
/// the test moves: each record of a tracking event's story (due, each attempt, given up, never
/// fired and why) and of a session's.
@Suite(.timeLimit(.minutes(1))) struct AuditTests {
    static let t0 = Fixture.t0
    static let beacon = "http://127.0.0.1:9/b"
    static let endpoints = DaemonCoreTests.endpoints

    static func event(_ type: TrackingEventType, at offset: Milliseconds, duration: Milliseconds = 0) -> TrackingEvent {
        TrackingEvent(event: type, startTime: t0 + offset, duration: duration, signalingURLs: [beacon + "?e=\(type.rawValue)&t=\(offset)"])
    }

    /// Ad break `p` (ad `a`, creative `c1`, 30 s from t0, its five playback events) and ad break `q`
    /// (ad `b`, 30 s from t0 + 120 s, its impression), in one data range.
    static func document(secondAd: String = "b", range: ClosedRange<Milliseconds>? = nil) -> MetadataDocument {
        var a = Ad(
            id: "a", startTime: t0, duration: 30_000,
            trackingEvents: [
                event(.impression, at: 0), event(.firstQuartile, at: 7_500), event(.midpoint, at: 15_000), event(.thirdQuartile, at: 22_500),
                event(.complete, at: 29_000),
            ])
        a.creativeID = "c1"
        let b = Ad(id: secondAd, startTime: t0 + 120_000, duration: 30_000, trackingEvents: [event(.impression, at: 120_000)])
        let range = range ?? (t0 - 600_000)...(t0 + 150_000)
        return MetadataDocument(
            dataRange: DataRange(start: range.lowerBound, end: range.upperBound),
            adBreaks: [
                AdBreak(id: "p", startTime: t0, duration: 30_000, ads: [a]),
                AdBreak(id: "q", startTime: t0 + 120_000, duration: 30_000, ads: [b]),
            ])
    }

    static func configuration(maxAge: Duration = .seconds(900), quiet: Bool = false) -> DaemonConfiguration {
        var configuration = DaemonCoreTests.configuration(maxAge: maxAge)
        configuration.quiet = quiet
        return configuration
    }

    static func playing(_ configuration: DaemonConfiguration = configuration()) -> EmbeddedDaemon {
        var daemon = EmbeddedDaemon(configuration: configuration)
        let started = daemon.startSession(endpoints)
        #expect(started)
        daemon.refresh(.document(document(), bytes: 100))
        return daemon
    }

    /// Ticks every second of the player's clock, the playhead moving with it, from `start` to `end` (offsets from t0).
    static func play(_ daemon: inout EmbeddedDaemon, from start: Milliseconds, to end: Milliseconds) {
        var offset = start
        while offset <= end {
            let at = 1_700_000_000_000 + offset
            #expect(daemon.send(#"{"playhead": \#(t0 + offset), "at": \#(at)}"#) == .done)
            offset += 1000
        }
    }

    static func records(_ daemon: EmbeddedDaemon, _ kind: AuditRecord.Kind) -> [AuditRecord] {
        daemon.audit.filter { $0.kind == kind }
    }

    static func notFired(_ daemon: EmbeddedDaemon) -> [String: NotFiredReason] {
        var reasons: [String: NotFiredReason] = [:]
        for record in records(daemon, .notFired) where record.urlHost == nil {
            reasons["\(record.subject.adID ?? "?").\(record.subject.event?.rawValue ?? "?")"] = record.notFired
        }
        return reasons
    }

    @Test func aFiredEventIsDueThenEachRequestIsAnAttempt() throws {
        var daemon = Self.playing()
        daemon.advance(by: 5_000)
        Self.play(&daemon, from: -500, to: 500)
        let due = try #require(Self.records(daemon, .due).first)
        #expect(due.subject.sessionID == "s1" && due.subject.adBreakID == "p" && due.subject.adID == "a" && due.subject.creativeID == "c1")
        #expect(due.subject.event == .impression && due.subject.timeline == .programDateTime)
        #expect(due.subject.window == Self.t0...(Self.t0 + TrackingEvent.minimumWindow))
        #expect(due.dueAt == daemon.wallNow && due.at == daemon.wallNow)
        #expect(due.played == [(Self.t0 - 500)...(Self.t0 + 500)], "the stretch that made it due")
        #expect(due.outcome == nil)
        #expect(Self.records(daemon, .attempt).isEmpty, "no request ended yet")

        daemon.advance(by: 250)
        daemon.answer(.answered(status: 204))
        let attempt = try #require(Self.records(daemon, .attempt).first)
        #expect(attempt.outcome == .delivered && attempt.httpStatus == 204 && attempt.attempt == 1 && attempt.latencyMilliseconds == 1)
        #expect(attempt.urlHost == "127.0.0.1" && attempt.mayBeResend == false)
        #expect(attempt.dueAt == due.dueAt, "when it became due, on the wall clock, 250 ms before the answer")
        #expect(attempt.at == due.at + 250)
        #expect(attempt.subject == due.subject)
    }

    @Test func aRetriedURLHasEveryAttemptAndThenWhyItWasGivenUp() throws {
        var daemon = Self.playing()
        Self.play(&daemon, from: -500, to: 500)
        daemon.answer(.answered(status: 503))
        let wake = try #require(daemon.nextWake)
        daemon.advance(by: wake - daemon.now)
        daemon.answer(.failed(.timedOut))
        daemon.advance(by: try #require(daemon.nextWake) - daemon.now)
        daemon.answer(.answered(status: 400))
        let attempts = Self.records(daemon, .attempt)
        #expect(attempts.map(\.attempt) == [1, 2, 3])
        #expect(attempts.map(\.outcome) == [.failed, .failed, .failed])
        #expect(attempts.map(\.httpStatus) == [503, nil, 400])
        #expect(attempts[1].error == HTTPClientError.timedOut.description)
        #expect(Set(attempts.map(\.id)).count == 3, "each attempt its own id")
        let givenUp = try #require(Self.records(daemon, .givenUp).first)
        #expect(givenUp.outcome == .givenUp && givenUp.attempt == 3 && givenUp.httpStatus == 400)
        #expect(givenUp.reason?.contains("400") == true)
    }

    @Test func aDeliveryPastTheMaxAgeIsGivenUpWithoutAnAttempt() throws {
        var core = DaemonCore(configuration: Self.configuration(maxAge: .seconds(60)), random: SeededGenerator(seed: 1))
        let key = BeaconDelivery.Key(
            sessionKey: "s0", adBreakID: "p", adID: "a", event: .impression, eventStart: Self.t0, url: Self.beacon, occurrence: 0)
        let stale = BeaconDelivery(key: key, reference: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0), attempts: 2, dueAt: 0)
        let restored = core.journalRestored([stale], now: 600_000, wallNow: 1_700_000_600_000)
        let records = restored.actions.flatMap { action -> [AuditRecord] in if case .write(_, let audit) = action { audit } else { [] } }
        #expect(records.map(\.kind) == [.givenUp], "the expiry is no attempt")
        #expect(records.first?.reason == DeliveryCoordinator.maxAgeReason && records.first?.attempt == 2)
        #expect(records.first?.dueAt == 1_700_000_000_000, "its due time on the wall clock")
        #expect(records.first?.subject.sessionID == "s0" && records.first?.subject.adID == "a", "a session no longer played: what the key says")
    }

    @Test(arguments: [(RequestResult.NotSent.quiet, NotFiredReason.quietMode), (.beaconsDisabled, .beaconsDisabled)])
    func aRequestNotSentIsAnEventThatReachedNobody(why: RequestResult.NotSent, reason: NotFiredReason) throws {
        var daemon = Self.playing()
        Self.play(&daemon, from: -500, to: 500)
        daemon.answer(.notSent(why))
        let held = try #require(Self.records(daemon, .notFired).first)
        #expect(held.notFired == reason && held.outcome == .notFired && held.urlHost == "127.0.0.1")
        #expect(Self.records(daemon, .attempt).isEmpty && Self.records(daemon, .givenUp).isEmpty)
    }

    @Test func theSessionsEndSaysWhyEachEventNeverFired() {
        var daemon = Self.playing()
        Self.play(&daemon, from: -500, to: 8_500)
        // A seek: the playhead jumps 30 s in one second of the player's clock.
        #expect(daemon.send(#"{"playhead": \#(Self.t0 + 40_000), "at": 1700000009500}"#) == .done)
        Self.play(&daemon, from: 41_000, to: 43_000)
        daemon.answer(.answered(status: 200))
        #expect(Self.records(daemon, .notFired).isEmpty, "nothing is told while the events may still fire")
        daemon.send("unload")
        #expect(Self.notFired(daemon) == [
            "a.midpoint": .seekedOver, "a.thirdQuartile": .seekedOver, "a.complete": .seekedOver, "b.impression": .notPlayed,
        ])
        let seeked = Self.records(daemon, .notFired).first { $0.subject.event == .midpoint }
        #expect(seeked?.played == [(Self.t0 - 500)...(Self.t0 + 8_500), (Self.t0 + 40_000)...(Self.t0 + 43_000)], "the stretches around it")
        #expect(Self.records(daemon, .sessionEnd).count == 1)
        #expect(daemon.audit.last?.kind == .sessionEnd, "the session's end comes after its events")
    }

    @Test func aSessionEndedInsideAnAdLeavesItsLaterEventsEndedFirst() {
        var daemon = Self.playing()
        Self.play(&daemon, from: -500, to: 10_500)
        daemon.send("unload")
        #expect(Self.notFired(daemon) == [
            "a.midpoint": .sessionEndedFirst, "a.thirdQuartile": .sessionEndedFirst, "a.complete": .sessionEndedFirst,
            "b.impression": .notPlayed,
        ])
    }

    @Test func aWithdrawnAdAndOneNeverConfirmedSayWhy() {
        var daemon = Self.playing()
        // The ad of q is replaced while its time lies in the data range: b is withdrawn.
        daemon.refresh(.document(Self.document(secondAd: "b2"), bytes: 101))
        daemon.send(.load(mediaURL: "http://127.0.0.1:9/other.m3u8"))
        let reasons = Self.notFired(daemon)
        #expect(reasons["b.impression"] == .withdrawn)
        #expect(reasons["b2.impression"] == .notPlayed)
        #expect(reasons["a.impression"] == .notPlayed)
        #expect(Self.records(daemon, .sessionEnd).count == 1, "a new load ends the session")
    }

    @Test func anEventBeyondItsAdIsNeverConfirmed() throws {
        var unconfirmed = Self.document()
        unconfirmed.adBreaks[1].ads[0].trackingEvents.append(Self.event(.complete, at: 200_000))
        var daemon = EmbeddedDaemon(configuration: Self.configuration())
        let started = daemon.startSession(Self.endpoints)
        #expect(started)
        daemon.refresh(.document(unconfirmed, bytes: 100))
        daemon.send("unload")
        #expect(Self.notFired(daemon)["b.complete"] == .neverConfirmed)
    }

    @Test func anAdBreakLeavingRetentionTellsItsEventsThatNeverFired() throws {
        var configuration = Self.configuration()
        configuration.retention = .seconds(60)
        var daemon = Self.playing(configuration)
        Self.play(&daemon, from: -500, to: 500)
        let later = (Self.t0 + 1_000_000)...(Self.t0 + 1_100_000)
        daemon.refresh(.document(MetadataDocument(dataRange: DataRange(start: later.lowerBound, end: later.upperBound), adBreaks: []), bytes: 50))
        #expect(Self.notFired(daemon) == [
            "a.firstQuartile": .sessionEndedFirst, "a.midpoint": .sessionEndedFirst, "a.thirdQuartile": .sessionEndedFirst,
            "a.complete": .sessionEndedFirst, "b.impression": .notPlayed,
        ])
        #expect(Self.records(daemon, .sessionEnd).isEmpty, "the session goes on")
        let told = daemon.audit.count
        daemon.send("unload")
        #expect(Self.records(daemon, .notFired).count == 5, "events gone from the schedule are told once")
        #expect(daemon.audit.count == told + 1)
    }

    @Test func sessionsTellTheirStartEndAndFailedInits() throws {
        var daemon = EmbeddedDaemon(configuration: Self.configuration())
        daemon.send(.load(mediaURL: DaemonCoreTests.mediaURL))
        var core = daemon.core
        let failed = core.initFailed(
            SessionInitError(reason: "HTTP 503"), mediaURL: DaemonCoreTests.mediaURL + "?token=secret", generation: core.supervisor.generation,
            now: 1, wallNow: 42)
        let records = failed.actions.flatMap { action -> [AuditRecord] in if case .audit(let records) = action { records } else { [] } }
        #expect(records.map(\.kind) == [.sessionInitFailed])
        #expect(records.first?.reason == "HTTP 503" && records.first?.at == 42)
        #expect(records.first?.subject.sessionID?.contains("secret") == false, "a media URL is shown without its query")

        let started = daemon.startSession(Self.endpoints)
        #expect(started)
        let start = try #require(Self.records(daemon, .sessionStart).first)
        #expect(start.subject.sessionID == "s1" && start.at == daemon.wallNow)
        daemon.beginDrain()
        #expect(Self.records(daemon, .sessionEnd).map(\.subject.sessionID) == ["s1"])
    }

    @Test func theSameStepGetsTheSameIDInAnotherRun() {
        func run() -> [AuditRecord] {
            var daemon = Self.playing()
            Self.play(&daemon, from: -500, to: 500)
            daemon.answer(.answered(status: 200))
            daemon.send("unload")
            return daemon.audit.filter { $0.kind != .sessionStart && $0.kind != .sessionEnd }
        }
        let (first, second) = (run(), run())
        #expect(first.map(\.id) == second.map(\.id))
        #expect(Set(first.map(\.id)).count == first.count)
        #expect(first.allSatisfy { $0.id.count == 32 && $0.id.allSatisfy(\.isHexDigit) })
    }

    @Test func attemptsRideInTheJournalWriteOfTheirDecision() throws {
        var daemon = Self.playing()
        Self.play(&daemon, from: -500, to: 500)
        daemon.answer(.answered(status: 200))
        // The EmbeddedDaemon appends a write's audit records as it writes the deliveries: the
        // attempt is in the audit exactly when the delivered state reached the journal.
        let delivered = try #require(daemon.journal.values.first { $0.state == .delivered })
        #expect(Self.records(daemon, .attempt).map(\.id) == [AuditRecordID.of(.attempt, AuditRecordID.parts(of: delivered.key) + ["1"])])
    }
}
