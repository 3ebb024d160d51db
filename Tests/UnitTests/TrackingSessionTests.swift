import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// End-to-end scenarios through `TrackingSession` on a synthetic clock.
@Suite(.timeLimit(.minutes(2))) struct TrackingSessionTests {
    let t0 = Fixture.t0
    let end = Fixture.t0 + Fixture.adDuration
    let document = Fixture.document([Fixture.adBreak(id: "p", start: Fixture.t0)])

    /// A player 5 s before the standard ad break "p", with a baseline tick taken.
    func player(retention: Milliseconds = 600_000) -> ScriptedPlayer {
        var player = ScriptedPlayer(document, at: t0 - 5000, retention: retention)
        player.tick(t0 - 5000)
        return player
    }

    @Test func normalPlayFiresEveryPlaybackEventOnceInOrder() {
        var player = player()
        #expect(player.session.pendingCount == 6)
        player.play(to: end + 5000)
        #expect(player.fired.types == Fixture.playbackTypes)
        #expect(player.fired.allSatisfy { $0.adBreakID == "p" && $0.adID == "p" })
        #expect(player.session.pendingCount == 0)
        for type in Fixture.playbackTypes {
            #expect(player.session.state(of: type, adBreak: "p") == .connecting)
        }
        for type in Fixture.userTypes {
            #expect(player.session.state(of: type, adBreak: "p") == .idle)
        }
    }

    @Test func eachEventFiresOnTheTickThatReachesIt() {
        var player = player()
        player.play(to: t0 - 250)
        #expect(player.fired.isEmpty)
        let fired1 = player.tick(t0)
        #expect(fired1.types == [.impression, .start])
        player.play(to: t0 + 7250)
        #expect(player.fired.count == 2)
        let fired2 = player.tick(t0 + 7500)
        #expect(fired2.types == [.firstQuartile])
        player.play(to: end - 250)
        let fired3 = player.tick(end)
        #expect(fired3.types == [.complete])
    }

    @Test func sparseTicksFiveSecondsApartFireEverything() {
        var player = player()
        player.play(to: end + 5000, step: 5000)
        #expect(player.fired.types == Fixture.playbackTypes)
    }

    @Test func seekingOverAWholeBreakFiresNothing() {
        var player = player()
        player.play(to: t0 - 3000)
        let fired4 = player.jump(to: end + 5000)
        #expect(fired4.isEmpty)
        player.play(to: end + 20_000)
        #expect(player.fired.isEmpty)
        #expect(player.session.pendingCount == 6)
    }

    @Test func seekingOverAWholeBreakWithSeekEventsFiresNothing() {
        var player = player()
        player.play(to: t0 - 3000)
        player.send(.seekStart)
        player.tick(t0 + 10_000)
        player.tick(end + 5000)
        player.send(.seekEnd)
        player.play(to: end + 20_000)
        #expect(player.fired.isEmpty)
        #expect(player.session.judge.state == .playing)
    }

    @Test func seekingIntoTheMiddleOfAnAdFiresTheImpressionAndWhatIsPlayedAfter() {
        var player = player()
        player.play(to: t0 - 3000)
        let fired5 = player.jump(to: t0 + 12_000)
        #expect(fired5.isEmpty)
        let fired6 = player.tick(t0 + 12_250)
        #expect(fired6.types == [.impression])
        player.play(to: end + 5000)
        #expect(player.fired.types == [.impression, .midpoint, .thirdQuartile, .complete])
        #expect(player.session.state(of: .start, adBreak: "p") == .idle)
        #expect(player.session.state(of: .firstQuartile, adBreak: "p") == .idle)
    }

    @Test func pauseAndResumeInsideAnAdFire() {
        var player = player()
        player.play(to: t0 + 10_000)
        let fired7 = player.send(.pause)
        #expect(fired7.types == [.pause])
        // Ticks while paused play nothing.
        let fired8 = player.tick(t0 + 10_000, after: 5000)
        #expect(fired8.isEmpty)
        let fired9 = player.tick(t0 + 16_000, after: 6000)
        #expect(fired9.isEmpty)
        let fired10 = player.send(.play)
        #expect(fired10.types == [.resume])
        // The first tick after the pause is only a baseline: the midpoint was skipped while paused.
        player.play(to: end + 5000)
        #expect(player.fired.types == [.impression, .start, .firstQuartile, .pause, .resume, .thirdQuartile, .complete])
    }

    @Test func pauseAndResumeOutsideAnAdFireNothing() {
        var player = player()
        player.play(to: t0 - 1000)
        let fired11 = player.send(.pause)
        #expect(fired11.isEmpty)
        let fired12 = player.send(.play)
        #expect(fired12.isEmpty)
        player.play(to: end + 5000)
        let playback = player.fired.count
        let fired13 = player.send(.pause)
        #expect(fired13.isEmpty)
        let fired14 = player.send(.play)
        #expect(fired14.isEmpty)
        #expect(player.fired.count == playback)
        #expect(player.session.state(of: .pause, adBreak: "p") == .idle)
        #expect(player.session.state(of: .resume, adBreak: "p") == .idle)
    }

    @Test func rewindingOverAPlayedAdFiresNothingAgain() {
        var player = player()
        player.play(to: end + 5000)
        #expect(player.fired.types == Fixture.playbackTypes)
        let fired15 = player.jump(to: t0 - 5000)
        #expect(fired15.isEmpty)
        let fired16 = player.play(to: end + 5000)
        #expect(fired16.isEmpty)
        #expect(player.fired.count == 6)
    }

    @Test func lateMetadataFiresPlayedEventsAtOnceAndOnce() {
        var player = ScriptedPlayer(session: TrackingSession(retention: 600_000), at: t0 - 5000)
        player.tick(t0 - 5000)
        player.play(to: end + 5000)
        #expect(player.fired.isEmpty)
        let late = player.apply(document)
        #expect(late.types == Fixture.playbackTypes)
        #expect(late.allSatisfy { player.session.schedule[$0.reference]?.reportingState == .connecting })
        let fired17 = player.apply(document)
        #expect(fired17.isEmpty)
        #expect(player.session.pendingCount == 0)
        player.jump(to: t0 - 1000)
        player.play(to: end + 5000)
        #expect(player.fired.count == 6)
    }

    @Test func lateEventsAddedToAKnownAdFire() {
        var player = player()
        player.play(to: t0 + 20_000)
        var refreshed = Fixture.adBreak(id: "p", start: t0)
        refreshed.ads[0].trackingEvents.append(
            TrackingEvent(event: .progress, startTime: t0 + 12_000, duration: 0, signalingURLs: ["http://127.0.0.1:4647/progress"]))
        refreshed.ads[0].trackingEvents.append(
            TrackingEvent(event: .progress, startTime: t0 + 25_000, duration: 0, signalingURLs: ["http://127.0.0.1:4647/progress"]))
        let late = player.apply(Fixture.document([refreshed]))
        #expect(late.types == [.progress])
        #expect(late.first.flatMap { player.session.schedule[$0.reference]?.startTime } == t0 + 12_000)
        let fired18 = player.apply(Fixture.document([refreshed]))
        #expect(fired18.isEmpty)
        let rest = player.play(to: end + 5000)
        #expect(rest.types == [.thirdQuartile, .progress, .complete])
    }

    @Test func aRefreshChangingTheAdDurationKeepsStates() throws {
        var player = player()
        player.play(to: t0 + 10_000)
        let fired = player.fired
        #expect(fired.types == [.impression, .start, .firstQuartile])
        player.session.record(.done, for: fired[0].reference)
        player.session.record(.failed, for: fired[1].reference)

        var shorter = Fixture.adBreak(id: "p", start: t0)
        shorter.duration = 20_000
        shorter.ads[0].duration = 20_000
        shorter.ads[0].trackingEvents[0].duration = 20_000
        let fired19 = player.apply(Fixture.document([shorter]))
        #expect(fired19.isEmpty)

        let ad = try #require(player.session.schedule.adBreak(id: "p")?.ads.first)
        #expect(ad.duration == 20_000)
        #expect(ad.trackingEvents[0].duration == 20_000)
        #expect(player.session.state(of: .impression, adBreak: "p") == .done)
        #expect(player.session.state(of: .start, adBreak: "p") == .failed)
        #expect(player.session.state(of: .firstQuartile, adBreak: "p") == .connecting)
        #expect(player.session.state(of: .midpoint, adBreak: "p") == .idle)

        // The ad as last described ends before the third quartile and complete: they wait for a
        // refresh to extend it over them.
        player.play(to: end + 5000)
        #expect(player.fired.types == [.impression, .start, .firstQuartile, .midpoint])
        #expect(ad.trackingEvents.filter { $0.heldBack == .awaitingConfirmation }.map(\.event) == [.thirdQuartile, .complete])
    }

    @Test func aResizedIdleEventFiresInItsNewWindow() {
        var player = player()
        player.play(to: t0 + 17_000)
        #expect(player.fired.types == [.impression, .start, .firstQuartile, .midpoint])
        // The third quartile is stretched to a 10 s window: playback in its new window fires it.
        var refreshed = Fixture.adBreak(id: "p", start: t0)
        refreshed.ads[0].trackingEvents[4].duration = 10_000
        let fired20 = player.apply(Fixture.document([refreshed]))
        #expect(fired20.isEmpty)
        player.jump(to: t0 + 32_000)
        let fired21 = player.tick(t0 + 32_250)
        #expect(fired21.types == [.thirdQuartile])
    }

    @Test(.enabled(if: Fixture.sharedFixtures != nil, Fixture.sharedFixturesMissing))
    func theCapturedSamplePlaysThrough() throws {
        let document = try MetadataDocument.decode(try Fixture.sampleMetadata())
        var player = ScriptedPlayer(document, at: t0 - 5000)
        player.tick(t0 - 5000)
        #expect(player.fired.isEmpty)
        player.play(to: t0 + 65_000)
        #expect(player.fired.types(ofAd: "418786173") == Fixture.playbackTypes)
        // The second ad is cut to 468 ms at the live edge: what lies beyond waits for confirmation.
        #expect(player.fired.types(ofAd: "418786181") == [.impression, .start])
        #expect(player.fired.count == 8)
        #expect(player.fired.allSatisfy { $0.adBreakID == "418786173" && $0.signalingURLs.count == 1 })
        #expect(player.session.pendingCount == 0)
        for ad in ["418786173", "418786181"] {
            #expect(player.session.state(of: .clickTracking, adBreak: "418786173", ad: ad) == .idle)
            #expect(player.session.state(of: .clickAbstractType, adBreak: "418786173", ad: ad) == .idle)
        }
    }

    @Test(.enabled(if: Fixture.sharedFixtures != nil, Fixture.sharedFixturesMissing))
    func theCapturedSampleFiresClicksOfTheAdBeingPlayed() throws {
        let document = try MetadataDocument.decode(try Fixture.sampleMetadata())
        var player = ScriptedPlayer(document, at: t0 + 1000)
        player.tick(t0 + 1000)
        let clicks = player.send(.click)
        #expect(Set(clicks.types) == [.clickTracking, .clickAbstractType])
        #expect(clicks.allSatisfy { $0.adID == "418786173" })
    }

    /// Ticks carrying `at` from a recording 2 h behind, then a plain tick 45 min ahead: the breaks
    /// it jumps over were not played, however the two clocks compare.
    @Test func aPlainTickAfterTicksOnThePlayersClockFiresNothingItJumpsOver() {
        let skipped = [Fixture.adBreak(id: "s1", start: t0 + 600_000), Fixture.adBreak(id: "s2", start: t0 + 1_200_000)]
        var player = ScriptedPlayer(Fixture.document([Fixture.adBreak(id: "p", start: t0)] + skipped), at: t0 - 5000)
        let recorded = player.clock - 7_200_000
        var playhead = t0 - 5000
        while playhead <= end + 1000 {
            player.tick(playhead, observedAt: recorded + playhead - t0)
            playhead += 250
        }
        #expect(player.fired.types == Fixture.playbackTypes)
        player.tick(t0 + 2_700_000, after: 250)
        player.tick(t0 + 2_700_250, after: 250)
        #expect(player.fired.count == Fixture.playbackTypes.count)
    }

    @Test func aDoubleRateStretchDoesNotCount() {
        var player = player()
        player.play(to: t0 - 2000)
        // Ticks report rate 2: twice as much program time per tick.
        var playhead = t0 - 2000
        while playhead < end + 5000 {
            playhead += 500
            player.tick(playhead, after: 250, rate: 2)
        }
        player.tick(playhead + 250, rate: 1)
        player.play(to: end + 10_000)
        #expect(player.fired.isEmpty)
    }

    @Test func aDoubleRateEventStopsCountingUntilNormalRate() {
        var player = player()
        player.play(to: t0 - 2000)
        player.send(.rate(2))
        var playhead = t0 - 2000
        while playhead < t0 + 10_000 {
            playhead += 500
            player.tick(playhead, after: 250)
        }
        #expect(player.fired.isEmpty)
        player.send(.rate(1))
        player.play(to: end + 5000)
        #expect(player.fired.types == [.impression, .midpoint, .thirdQuartile, .complete])
    }

    /// Recorded JSON ticks, 5 s apart, observed at 1x.
    func recordedTicks() throws -> [PlayheadTick] {
        let observedStart: Milliseconds = 1_700_000_000_000
        return try stride(from: t0 - 5000, through: end + 5000, by: 5000).map { playhead in
            let line = #"{"playhead": \#(playhead), "at": \#(observedStart + playhead - t0), "rate": 1}"#
            guard case .success(.playhead(let tick)) = LineParser.parse(line) else { throw ParseFailure(line: line) }
            return tick
        }
    }

    struct ParseFailure: Error { var line: String }

    func replay(_ ticks: [PlayheadTick], arrivalSpacing: Milliseconds) -> [Firing] {
        var session = TrackingSession(retention: 600_000)
        _ = session.apply(document)
        var fired: [Firing] = []
        for (index, tick) in ticks.enumerated() {
            fired += session.observe(tick, arrivalTime: 1_800_000_000_000 + Milliseconds(index) * arrivalSpacing)
        }
        return fired
    }

    @Test func ticksWithObservedAtReplayAlikeAtTenTimesSpeed() throws {
        let ticks = try recordedTicks()
        #expect(ticks.allSatisfy { $0.observedAt != nil })
        let realTime = replay(ticks, arrivalSpacing: 5000)
        let tenTimes = replay(ticks, arrivalSpacing: 500)
        #expect(realTime.types == Fixture.playbackTypes)
        #expect(tenTimes == realTime)
        // Without `at`, the same ticks delivered at 10x look like seeks.
        let bare = ticks.map { PlayheadTick(playhead: $0.playhead, rate: $0.rate) }
        #expect(replay(bare, arrivalSpacing: 500).isEmpty)
    }

    // MARK: Retention

    @Test func anAdBreakGoneFromTheMetadataIsKeptUntilRetentionAfterItEnds() throws {
        let retention: Milliseconds = 60_000
        let later = Fixture.adBreak(id: "later", start: t0 + 3_600_000)
        var session = TrackingSession(retention: retention)
        _ = session.apply(Fixture.document([Fixture.adBreak(id: "p", start: t0), later], rangeEnd: t0))
        #expect(session.pendingCount == 12)
        let adBreakEnd = try #require(session.schedule.adBreak(id: "p")).endTime

        _ = session.apply(Fixture.document([later], rangeEnd: adBreakEnd + retention - 1000))
        #expect(session.schedule.adBreak(id: "p") != nil)
        #expect(session.pendingCount == 12)

        _ = session.apply(Fixture.document([later], rangeEnd: adBreakEnd + retention + 1000))
        #expect(session.schedule.adBreak(id: "p") == nil)
        #expect(session.schedule.adBreaks.map(\.id) == ["later"])
        #expect(session.pendingCount == 6)
    }

    @Test(arguments: [(-1000, true), (1000, false)] as [(Milliseconds, Bool)])
    func retentionIsMeasuredFromTheLastPlayheadWhenLater(offset: Milliseconds, kept: Bool) throws {
        let retention: Milliseconds = 60_000
        let later = Fixture.adBreak(id: "later", start: t0 + 3_600_000)
        var player = ScriptedPlayer(Fixture.document([Fixture.adBreak(id: "p", start: t0), later], rangeEnd: t0), at: t0, retention: retention)
        let adBreakEnd = try #require(player.session.schedule.adBreak(id: "p")).endTime
        player.tick(adBreakEnd + retention + offset)
        player.apply(Fixture.document([later], rangeEnd: t0))
        #expect((player.session.schedule.adBreak(id: "p") != nil) == kept)
    }

    @Test func anAdBreakStillInTheMetadataIsNeverPruned() {
        var player = player(retention: 1000)
        let far = t0 + 86_400_000
        player.jump(to: far)
        player.apply(Fixture.document([Fixture.adBreak(id: "p", start: t0)], rangeEnd: far))
        #expect(player.session.schedule.adBreak(id: "p") != nil)
        #expect(player.session.pendingCount == 6)
    }

    @Test func userActionsFireInAPodRetainedAfterLeavingTheMetadata() {
        var player = player()
        // The data range moved past the ad's start: kept, not withdrawn.
        player.apply(MetadataDocument(dataRange: DataRange(start: t0 + 1, end: t0 + 1000), adBreaks: []))
        player.play(to: t0 + 1000)
        let fired22 = player.send(.skip)
        #expect(fired22.types == [.skip])
    }

    /// Found by fuzzing (the captured sample with its first quartile repeated, 1 ms then 0 ms
    /// long): the event was indexed twice and sent two beacons.
    @Test func anEventRepeatedInOneDocumentFiresOnce() {
        var ad = Fixture.ad(id: "p", start: t0)
        var longer = ad.trackingEvents.first { $0.event == .firstQuartile }!
        longer.duration = 1
        ad.trackingEvents.insert(longer, at: 0)
        var player = ScriptedPlayer(Fixture.document([Fixture.adBreak(id: "p", ads: [ad])]), at: t0 - 5000)
        player.tick(t0 - 5000)
        player.play(to: end + 5000)
        #expect(player.fired.types == Fixture.playbackTypes)
    }
}

// MARK: Resuming from a snapshot

extension TrackingSessionTests {
    static let endpoints = SessionEndpoints(
        mediaURL: "http://127.0.0.1:4647/live.m3u8", manifestURL: "http://127.0.0.1:4647/s/live.m3u8",
        trackingURL: "http://127.0.0.1:4647/s/metadata", sessionID: "s1")

    /// A player that played ad break "p" from 5 s before it to 10 s in: impression, start and first quartile fired.
    func playedTenSeconds() -> ScriptedPlayer {
        var player = player()
        player.play(to: t0 + 10_000)
        return player
    }

    /// The reporting state of every event of `session`, by reference.
    func states(of session: TrackingSession) -> [EventReference: ReportingState] {
        var states: [EventReference: ReportingState] = [:]
        for adBreak in session.schedule.adBreaks {
            for (adIndex, ad) in adBreak.ads.enumerated() {
                for (eventIndex, event) in ad.trackingEvents.enumerated() {
                    states[EventReference(adBreakID: adBreak.id, adIndex: adIndex, eventIndex: eventIndex)] = event.reportingState
                }
            }
        }
        return states
    }

    @Test func aSnapshotHoldsTheSchedulePlayedStretchesDataRangeAndPlayhead() {
        let player = playedTenSeconds()
        let snapshot = player.session.snapshot(endpoints: Self.endpoints, savedAt: 1234)
        #expect(snapshot.endpoints == Self.endpoints)
        #expect(snapshot.savedAt == 1234)
        #expect(snapshot.adBreaks == player.session.schedule.adBreaks)
        #expect(snapshot.dataRange == player.session.dataRange)
        #expect(snapshot.played == [[t0 - 5000, t0 + 10_000]])
        #expect(snapshot.playhead == t0 + 10_000)
    }

    @Test func aSnapshotRoundTripResumesTheSameScheduleAndPlayedStretches() throws {
        var player = playedTenSeconds()
        // A later refresh appends an event and a second ad break: positions must survive the round trip.
        var refreshed = Fixture.adBreak(id: "p", start: t0)
        refreshed.ads[0].trackingEvents.append(
            TrackingEvent(event: .progress, startTime: t0 + 20_000, duration: 0, signalingURLs: ["http://127.0.0.1:4647/progress"]))
        player.apply(Fixture.document([Fixture.adBreak(id: "q", start: t0 + 120_000), refreshed]))
        player.session.record(.done, for: player.fired[0].reference)
        player.session.record(.failed, for: player.fired[1].reference)
        player.tick(t0 + 10_250)
        player.jump(to: t0 + 40_000)
        player.play(to: t0 + 41_000)

        let snapshot = player.session.snapshot(endpoints: Self.endpoints, savedAt: 1234)
        let decoded = try JSONDecoder().decode(SessionSnapshot.self, from: JSONEncoder().encode(snapshot))
        #expect(decoded == snapshot)
        let resumed = TrackingSession.resuming(decoded, states: states(of: player.session), retention: 600_000)
        #expect(resumed.due.isEmpty)
        #expect(resumed.session.schedule == player.session.schedule)
        #expect(resumed.session.played == player.session.played)
        #expect(resumed.session.played.ranges == [(t0 - 5000)...(t0 + 10_250), (t0 + 40_000)...(t0 + 41_000)])
        #expect(resumed.session.dataRange == player.session.dataRange)
        #expect(resumed.session.retention == 600_000)
        let again = resumed.session.snapshot(endpoints: Self.endpoints, savedAt: 1234)
        #expect(again.adBreaks == snapshot.adBreaks && again.played == snapshot.played && again.dataRange == snapshot.dataRange)
    }

    @Test func eventsWithAStateKeepItAndAreNeverFiredAgain() {
        let played = playedTenSeconds()
        let fired = played.fired
        #expect(fired.types == [.impression, .start, .firstQuartile])
        let snapshot = played.session.snapshot(endpoints: Self.endpoints, savedAt: 0)
        let states: [EventReference: ReportingState] = [fired[0].reference: .done, fired[1].reference: .failed, fired[2].reference: .connecting]
        let resumed = TrackingSession.resuming(snapshot, states: states, retention: 600_000)
        #expect(resumed.due.isEmpty)
        #expect(resumed.session.state(of: .impression, adBreak: "p") == .done)
        #expect(resumed.session.state(of: .start, adBreak: "p") == .failed)
        #expect(resumed.session.state(of: .firstQuartile, adBreak: "p") == .connecting)
        // Playing their windows again fires only what was never played.
        var player = ScriptedPlayer(session: resumed.session, at: t0 - 1000)
        player.tick(t0 - 1000)
        player.play(to: end + 5000)
        #expect(player.fired.types == [.midpoint, .thirdQuartile, .complete])
    }

    @Test func anIdleEventWhoseWindowWasPlayedFiresOnceAtResume() {
        let played = playedTenSeconds()
        let fired = played.fired
        let snapshot = played.session.snapshot(endpoints: Self.endpoints, savedAt: 0)
        // The first quartile fired, but its delivery never reached the journal.
        let resumed = TrackingSession.resuming(snapshot, states: [fired[0].reference: .done, fired[1].reference: .done], retention: 600_000)
        #expect(resumed.due.types == [.firstQuartile])
        #expect(resumed.due.first?.reference == fired[2].reference)
        #expect(resumed.due.first == fired[2])
        #expect(resumed.session.state(of: .firstQuartile, adBreak: "p") == .connecting)
        // Neither replaying its window nor resuming the resumed session fires it again.
        var player = ScriptedPlayer(session: resumed.session, at: t0 + 5000)
        player.tick(t0 + 5000)
        player.play(to: t0 + 10_000)
        #expect(player.fired.isEmpty)
        let twice = TrackingSession.resuming(
            player.session.snapshot(endpoints: Self.endpoints, savedAt: 1), states: states(of: player.session), retention: 600_000)
        #expect(twice.due.isEmpty)
    }

    @Test func anIdleEventNotYetPlayedFiresWhenALaterTickPlaysIt() {
        let played = playedTenSeconds()
        let snapshot = played.session.snapshot(endpoints: Self.endpoints, savedAt: 0)
        let resumed = TrackingSession.resuming(snapshot, states: states(of: played.session), retention: 600_000)
        #expect(resumed.due.isEmpty)
        #expect(resumed.session.pendingCount == 3)
        #expect(resumed.session.state(of: .midpoint, adBreak: "p") == .idle)
        var player = ScriptedPlayer(session: resumed.session, at: t0 + 10_000)
        // The first tick after a restart is only a baseline.
        #expect(player.tick(t0 + 14_000).isEmpty)
        player.play(to: t0 + 14_750)
        #expect(player.fired.isEmpty)
        let midpoint = player.tick(t0 + 15_000)
        #expect(midpoint.types == [.midpoint])
        player.play(to: end + 5000)
        #expect(player.fired.types == [.midpoint, .thirdQuartile, .complete])
        #expect(player.session.pendingCount == 0)
    }

    @Test func resumingNeverFiresUserActionEvents() {
        // The user events sit at the ad's start, inside the played stretch.
        let played = playedTenSeconds()
        let snapshot = played.session.snapshot(endpoints: Self.endpoints, savedAt: 0)
        let resumed = TrackingSession.resuming(snapshot, states: [:], retention: 600_000)
        #expect(resumed.due.types == [.impression, .start, .firstQuartile])
        for type in Fixture.userTypes {
            #expect(resumed.session.state(of: type, adBreak: "p") == .idle)
        }
        #expect(resumed.session.pendingCount == 3)
    }

    @Test func malformedPlayedStretchesAreIgnored() {
        var snapshot = playedTenSeconds().session.snapshot(endpoints: Self.endpoints, savedAt: 0)
        snapshot.played = [[t0 + 20_000, t0 + 19_000], [t0 + 25_000], [], [t0 + 26_000, t0 + 27_000, t0 + 28_000], [t0 - 5000, t0 + 10_000]]
        let resumed = TrackingSession.resuming(snapshot, states: [:], retention: 600_000)
        #expect(resumed.session.played.ranges == [(t0 - 5000)...(t0 + 10_000)])
        #expect(resumed.due.types == [.impression, .start, .firstQuartile])
    }

    /// On program date time the reporters' content position counts from the content's start: the
    /// first data range's start, ads excluded; set once, so a later document moves nothing. Status's
    /// own content position stays nil there.
    @Test func theReportedContentPositionOnProgramDateTimeCountsFromTheFirstDataRange() {
        var session = TrackingSession(retention: 600_000)
        let adBreak = Fixture.adBreak(id: "p", start: t0 + 10_000)
        _ = session.apply(MetadataDocument(dataRange: DataRange(start: t0, end: t0 + 120_000), adBreaks: [adBreak]))
        #expect(session.reportedContentPosition == nil, "no playhead yet")
        _ = session.observe(PlayheadTick(playhead: t0 + 5_000), arrivalTime: 0)
        #expect(session.reportedContentPosition == 5_000)
        _ = session.observe(PlayheadTick(playhead: t0 + 10_000 + Fixture.adDuration + 2_000), arrivalTime: 40_000)
        #expect(session.reportedContentPosition == 12_000, "the ad break's 30 s left out")
        _ = session.apply(MetadataDocument(dataRange: DataRange(start: t0 + 60_000, end: t0 + 180_000), adBreaks: [adBreak]))
        #expect(session.reportedContentPosition == 12_000, "a later data range moves nothing")
        #expect(session.contentPosition == nil)
    }

    /// Ticks before any metadata: the first playhead is where the content starts.
    @Test func withoutMetadataTheFirstPlayheadIsTheStart() {
        var session = TrackingSession(retention: 600_000)
        _ = session.observe(PlayheadTick(playhead: t0), arrivalTime: 0)
        _ = session.observe(PlayheadTick(playhead: t0 + 3_000), arrivalTime: 3_000)
        #expect(session.reportedContentPosition == 3_000)
    }
}
