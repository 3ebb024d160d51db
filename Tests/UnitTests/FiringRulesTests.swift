import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The firing rules of the contract, one by one, through `TrackingSession`.
@Suite(.timeLimit(.minutes(2))) struct FiringRulesTests {
    let t0 = Fixture.t0
    let end = Fixture.t0 + Fixture.adDuration

    /// A player 2 s before the standard ad break "p" at `t0`, with a baseline tick taken.
    func player(userEvents: Bool = true, extra: [TrackingEvent] = [], retention: Milliseconds = 600_000) -> ScriptedPlayer {
        let adBreak = Fixture.adBreak(id: "p", ads: [Fixture.ad(id: "p", start: t0, userEvents: userEvents, extra: extra)])
        var player = ScriptedPlayer(Fixture.document([adBreak]), at: t0 - 2000, retention: retention)
        player.tick(t0 - 2000)
        return player
    }

    // MARK: 1. Playback-triggered events fire at most once per session

    @Test func playbackEventsFireOnceWhateverHappens() {
        var player = player()
        player.play(to: end + 2000)
        #expect(player.fired.types == Fixture.playbackTypes)
        // Rewind and play it again.
        player.jump(to: t0 - 2000)
        player.play(to: end + 2000)
        // Seek back into the middle and play on.
        player.jump(to: t0 + 14_000)
        player.play(to: end + 2000)
        // Refresh with the same metadata, and with a longer ad.
        let fired1 = player.apply(Fixture.document([Fixture.adBreak(id: "p", start: t0)]))
        #expect(fired1.isEmpty)
        var longer = Fixture.adBreak(id: "p", start: t0)
        longer.duration += 5000
        longer.ads[0].duration += 5000
        longer.ads[0].trackingEvents[0].duration += 5000
        let fired2 = player.apply(Fixture.document([longer]))
        #expect(fired2.isEmpty)
        player.jump(to: t0 - 1000)
        player.play(to: end + 8000)
        #expect(player.fired.types == Fixture.playbackTypes)
        #expect(player.session.pendingCount == 0)
    }

    @Test(arguments: [TrackingEventType.creativeView, .progress, .loaded, .breakStart, .breakEnd])
    func otherKnownPlaybackTypesFireOnce(type: TrackingEventType) {
        let extra = TrackingEvent(event: type, startTime: t0 + 1000, duration: 0, signalingURLs: ["http://127.0.0.1:4647/x"])
        var player = player(extra: [extra])
        #expect(player.session.pendingCount == 7)
        player.play(to: end + 2000)
        player.jump(to: t0)
        player.play(to: end + 2000)
        #expect(player.fired.types.filter { $0 == type }.count == 1)
        #expect(player.session.pendingCount == 0)
    }

    // MARK: 3. An event fires when a played stretch covers any instant of [s, s + max(d, 1 s)]

    /// (event duration, where playback resumes after a seek relative to the event start, whether it fires)
    @Test(arguments: [
        (0, 0, true),
        (0, 300, true),
        (0, 1000, true),
        (0, 1001, false),
        (400, 1000, true),  // short events still get a second
        (400, 1001, false),
        (5000, 5000, true),
        (5000, 5001, false),
        (0, -200, true),
    ] as [(Milliseconds, Milliseconds, Bool)])
    func firesWhenPlaybackCoversItsWindow(duration: Milliseconds, landing: Milliseconds, fires: Bool) {
        let start = t0 + 10_000
        let event = TrackingEvent(event: .progress, startTime: start, duration: duration, signalingURLs: ["http://127.0.0.1:4647/p"])
        var player = player(userEvents: false, extra: [event])
        let fired3 = player.jump(to: start + landing)
        #expect(fired3.isEmpty)
        player.play(to: start + 6000)
        #expect(player.fired.types.contains(.progress) == fires)
    }

    @Test(arguments: [(0, true), (-1, false)] as [(Milliseconds, Bool)])
    func aStretchEndingAtTheStartFires(endOffset: Milliseconds, fires: Bool) {
        let start = t0 + 10_000
        let event = TrackingEvent(event: .progress, startTime: start, duration: 0, signalingURLs: ["http://127.0.0.1:4647/p"])
        var player = player(userEvents: false, extra: [event])
        player.jump(to: start + endOffset - 250)
        let fired4 = player.tick(start + endOffset)
        #expect(fired4.types.contains(.progress) == fires)
        #expect(player.session.state(of: .progress, adBreak: "p") == (fires ? .connecting : .idle))
    }

    @Test func anImpressionSpanningTheAdFiresForAnyPlayedPart() {
        var player = player()
        player.jump(to: end - 200)
        let fired5 = player.tick(end - 100)
        #expect(fired5.types == [.impression])
    }

    @Test func sparseTicksPassingZeroDurationQuartilesFireThem() {
        var player = player()
        let fired = player.play(to: end + 5000, step: 5000)
        #expect(fired.types == Fixture.playbackTypes)
    }

    @Test(arguments: [(300, true), (3000, false)] as [(Milliseconds, Bool)])
    func landingAfterTheAdStartFiresStartOnlyWhenClose(landing: Milliseconds, firesStart: Bool) {
        var player = player()
        // The landing tick is a seek: it fires nothing by itself.
        let fired6 = player.jump(to: t0 + landing)
        #expect(fired6.isEmpty)
        let next = player.tick(t0 + landing + 250)
        #expect(next.types == (firesStart ? [.impression, .start] : [.impression]))
    }

    // MARK: 4. Late metadata fires at once, once

    @Test func lateMetadataFiresWhatWasAlreadyPlayed() {
        var player = ScriptedPlayer(session: TrackingSession(retention: 600_000), at: t0 - 2000)
        player.tick(t0 - 2000)
        let fired7 = player.play(to: t0 + 10_000)
        #expect(fired7.isEmpty)
        let document = Fixture.document([Fixture.adBreak(id: "p", start: t0)], rangeEnd: t0 + 10_000)
        let fired8 = player.apply(document)
        #expect(fired8.types == [.impression, .start, .firstQuartile])
        let fired9 = player.apply(document)
        #expect(fired9.isEmpty)
        #expect(player.session.pendingCount == 3)
        player.play(to: end + 2000)
        #expect(player.fired.types == Fixture.playbackTypes)
    }

    @Test func lateMetadataBeyondRetentionDoesNotFire() {
        var player = ScriptedPlayer(session: TrackingSession(retention: 60_000), at: t0 - 2000)
        player.tick(t0 - 2000)
        player.play(to: end + 2000)
        // Ten minutes later, metadata about the long-gone ad arrives.
        player.jump(to: t0 + 600_000)
        let document = Fixture.document([Fixture.adBreak(id: "p", start: t0)], rangeEnd: t0 + 600_000)
        let fired10 = player.apply(document)
        #expect(fired10.isEmpty)
    }

    // MARK: 5. User events fire on their input, within an ad, every time

    @Test(arguments: UserAction.allCases)
    func userActionsFireTheirEventsInAnAdEveryTime(action: UserAction) {
        var player = player()
        player.play(to: t0 + 5000)
        let before = player.fired.count
        for _ in 1...2 {
            let fired = player.send(action)
            #expect(fired.count == action.eventTypes.count)
            #expect(Set(fired.types) == Set(action.eventTypes))
            #expect(fired.allSatisfy { $0.adID == "p" && $0.adBreakID == "p" })
        }
        #expect(player.fired.count == before + 2 * action.eventTypes.count)
    }

    @Test(arguments: UserAction.allCases)
    func userActionsOutsideAnAdFireNothing(action: UserAction) {
        var player = player()
        let fired11 = player.send(action)
        #expect(fired11.isEmpty)
        player.play(to: end + 2000)
        let fired12 = player.send(action)
        #expect(fired12.isEmpty)
        var fresh = ScriptedPlayer(Fixture.document([Fixture.adBreak(id: "p", start: t0)]), at: t0)
        // No playhead known yet.
        let fired13 = fresh.send(action)
        #expect(fired13.isEmpty)
    }

    /// (playhead relative to the ad's start, whether an action there belongs to the ad)
    @Test(arguments: [
        (-1, false), (0, true), (Fixture.adDuration + 500, true), (Fixture.adDuration + 501, false),
    ] as [(Milliseconds, Bool)])
    func actionsBelongToTheAdUntilHalfASecondAfterItsEnd(offset: Milliseconds, inAd: Bool) {
        var player = player()
        player.jump(to: t0 + offset)
        let fired14 = player.send(.mute)
        #expect(fired14.types == (inAd ? [.mute] : []))
    }

    @Test func pauseAndResumeFireInAnAdEveryTime() {
        var player = player()
        player.play(to: t0 + 5000)
        let fired15 = player.send(.pause)
        #expect(fired15.types == [.pause])
        let fired16 = player.send(.pause)
        #expect(fired16.isEmpty)  // already paused: not a new pause
        let fired17 = player.send(.play)
        #expect(fired17.types == [.resume])
        let fired18 = player.send(.play)
        #expect(fired18.isEmpty)  // not paused: nothing to resume
        let fired19 = player.send(.pause)
        #expect(fired19.types == [.pause])
        let fired20 = player.send(.play)
        #expect(fired20.types == [.resume])
    }

    @Test(arguments: [PlayerEvent.seekStart, .seekEnd, .bufferStart, .bufferEnd, .complete, .rate(2), .rate(1)])
    func otherPlayerEventsFireNothing(event: PlayerEvent) {
        var player = player()
        player.play(to: t0 + 5000)
        let before = player.fired.count
        let fired21 = player.send(event)
        #expect(fired21.isEmpty)
        #expect(player.fired.count == before)
    }

    @Test func playAfterCompleteIsNoResume() {
        var player = player()
        player.play(to: t0 + 5000)
        player.send(.complete)
        let fired22 = player.send(.play)
        #expect(fired22.isEmpty)
    }

    @Test func userEventsNeverFireFromTime() {
        var player = player()
        player.play(to: end + 2000)
        player.jump(to: t0 - 1000)
        player.play(to: end + 2000, step: 5000)
        #expect(player.fired.allSatisfy { $0.event.trigger == .playback })
        for type in Fixture.userTypes {
            #expect(player.session.state(of: type, adBreak: "p") == .idle)
        }
    }

    // MARK: 6. Unknown types never fire

    @Test func unknownTypesStayIdle() {
        let odd = TrackingEvent(event: TrackingEventType(rawValue: "acceptInvitationLinear"), startTime: t0, duration: 30_000, signalingURLs: ["http://127.0.0.1:4647/u"])
        var player = player(extra: [odd])
        #expect(player.session.pendingCount == 6)
        player.play(to: end + 2000)
        for action in UserAction.allCases { player.send(action) }
        player.send(.pause)
        player.send(.play)
        #expect(!player.fired.types.contains(odd.event))
        #expect(player.session.state(of: odd.event, adBreak: "p") == .idle)
    }

    // MARK: 7. Reporting states

    @Test func firingConnectsAndRecordingSetsTheOutcome() throws {
        var player = player()
        let fired = player.play(to: t0 + 500)
        #expect(fired.types == [.impression, .start])
        for firing in fired {
            #expect(player.session.schedule[firing.reference]?.reportingState == .connecting)
            #expect(firing.signalingURLs == [Fixture.url(ad: "p", firing.event)])
        }
        let impression = try #require(fired.first { $0.event == .impression })
        let start = try #require(fired.first { $0.event == .start })
        player.session.record(.failed, for: impression.reference)
        #expect(player.session.state(of: .impression, adBreak: "p") == .failed)
        #expect(player.session.state(of: .start, adBreak: "p") == .connecting)
        player.session.record(.done, for: start.reference)
        #expect(player.session.state(of: .start, adBreak: "p") == .done)
        #expect(player.session.state(of: .impression, adBreak: "p") == .failed)
        #expect(player.session.state(of: .firstQuartile, adBreak: "p") == .idle)
    }

    @Test func userEventsConnectEachTimeTheyFire() throws {
        var player = player()
        player.play(to: t0 + 5000)
        let first = try #require(player.send(.mute).first)
        player.session.record(.done, for: first.reference)
        let second = try #require(player.send(.mute).first)
        #expect(second.reference == first.reference)
        #expect(player.session.state(of: .mute, adBreak: "p") == .connecting)
    }
}

extension FiringRulesTests {
    /// CPU-bound for seconds: `make test` runs it in its sweeps step, apart from the tests that
    /// need the cooperative pool on time (loopback servers, timers, waits).
    @Suite(.timeLimit(.minutes(5))) struct Sweeps {
        // 8. Matching does not rescan everything
        let t0 = Fixture.t0

        @Test func aTickAmongTenThousandAdBreaksFiresOnlyItsOwnEvents() {
            let spacing: Milliseconds = 60_000
            let adBreaks = (0..<10_000).map { Fixture.adBreak(id: "pod\($0)", start: t0 + Milliseconds($0) * spacing, userEvents: false) }
            var player = ScriptedPlayer(Fixture.document(adBreaks), at: t0, retention: 3_600_000 * 1000)
            #expect(player.session.schedule.adBreaks.count == 10_000)
            #expect(player.session.pendingCount == 60_000)

            let last = t0 + 9999 * spacing
            player.tick(last - 1000)
            let fired = player.play(to: last + 250)
            #expect(fired.types == [.impression, .start])
            #expect(fired.allSatisfy { $0.adBreakID == "pod9999" })
            #expect(player.session.pendingCount == 60_000 - 2)

            let middle = t0 + 5000 * spacing
            player.jump(to: middle + 7000)
            let more = player.play(to: middle + 8000)
            #expect(more.types == [.impression, .firstQuartile])
            #expect(more.allSatisfy { $0.adBreakID == "pod5000" })
            #expect(player.session.pendingCount == 60_000 - 4)
        }
    }
}
