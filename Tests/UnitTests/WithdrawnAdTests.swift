import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// An ad missing from a later document while its start lies inside that document's data range was
/// withdrawn: if none of its events fired, none ever will. What the data range moved past is kept.
@Suite(.timeLimit(.minutes(2))) struct WithdrawnAdTests {
    let t0 = Fixture.t0
    let end = Fixture.t0 + Fixture.adDuration

    /// AdBreak "p" with ads "a1" at `t0` and "a2" after it.
    var twoAds: AdBreak {
        Fixture.adBreak(id: "p", ads: [Fixture.ad(id: "a1", start: t0), Fixture.ad(id: "a2", start: end)])
    }

    /// AdBreak "p" whose second ad "a2" was replaced by "b2" at the same time.
    var replaced: AdBreak {
        Fixture.adBreak(id: "p", ads: [Fixture.ad(id: "a1", start: t0), Fixture.ad(id: "b2", start: end)])
    }

    func ad(_ id: String, in schedule: AdSchedule, adBreak: String = "p") -> Ad? {
        schedule.adBreak(id: adBreak)?.ads.first { $0.id == id }
    }

    /// (data range start and end relative to a2's start, whether a2 left out is withdrawn)
    @Test(arguments: [
        (-600_000, 60_000, true),
        (0, 0, true),
        (0, 60_000, true),
        (-600_000, 0, true),
        (-600_000, -1, false),
        (1, 60_000, false),
    ] as [(Milliseconds, Milliseconds, Bool)])
    func anAdLeftOutWhileItsStartLiesInTheDataRangeIsWithdrawn(from: Milliseconds, to: Milliseconds, withdrawn: Bool) throws {
        var schedule = AdSchedule()
        _ = schedule.merge([twoAds], within: DataRange(start: t0 - 600_000, end: end + 60_000))
        let changes = schedule.merge([replaced], within: DataRange(start: end + from, end: end + to))
        let a2 = try #require(ad("a2", in: schedule))
        #expect(a2.isWithdrawn == withdrawn)
        #expect(a2.trackingEvents.allSatisfy { $0.heldBack == (withdrawn ? .withdrawn : nil) })
        #expect(changes.withdrawn.count == (withdrawn ? a2.trackingEvents.count : 0))
        #expect(changes.withdrawn.allSatisfy { $0.adIndex == 1 })
        #expect(ad("a1", in: schedule)?.isWithdrawn == false)
        #expect(ad("b2", in: schedule)?.isWithdrawn == false)
    }

    @Test func anAdBreakLeftOutWithdrawsEachAdThatStartsInTheDataRange() throws {
        var schedule = AdSchedule()
        _ = schedule.merge([twoAds], within: DataRange(start: t0 - 600_000, end: end + 60_000))
        // The range now starts between the two ads: only the second could still be described.
        let changes = schedule.merge([], within: DataRange(start: t0 + 1, end: end + 60_000))
        #expect(ad("a1", in: schedule)?.isWithdrawn == false)
        #expect(ad("a2", in: schedule)?.isWithdrawn == true)
        #expect(Set(changes.withdrawn.map(\.adIndex)) == [1])
    }

    /// (the reporting state one event of a2 reached before a2 left the metadata)
    @Test(arguments: [ReportingState.connecting, .done, .failed])
    func anAdWithAnEventFiredIsNotWithdrawn(state: ReportingState) {
        var schedule = AdSchedule()
        _ = schedule.merge([twoAds], within: DataRange(start: t0 - 600_000, end: end + 60_000))
        schedule.setReportingState(state, of: EventReference(adBreakID: "p", adIndex: 1, eventIndex: 0))
        let changes = schedule.merge([replaced], within: DataRange(start: t0 - 600_000, end: end + 60_000))
        #expect(changes.withdrawn.isEmpty)
        #expect(ad("a2", in: schedule)?.isWithdrawn == false)
    }

    @Test func aWithdrawnAdStaysWithdrawnWhenDescribedAgainAndSoDoesWhatItGains() throws {
        var schedule = AdSchedule()
        let range = DataRange(start: t0 - 600_000, end: end + 60_000)
        _ = schedule.merge([twoAds], within: range)
        _ = schedule.merge([replaced], within: range)
        var back = twoAds
        back.ads[1].trackingEvents.append(TrackingEvent(event: .progress, startTime: end + 1000, duration: 0, signalingURLs: []))
        back.ads.append(replaced.ads[1])
        let changes = schedule.merge([back], within: range)
        #expect(changes.withdrawn.isEmpty)
        #expect(changes.added.count == 1)
        let a2 = try #require(ad("a2", in: schedule))
        #expect(a2.isWithdrawn)
        #expect(a2.trackingEvents.count == Fixture.ad(id: "a2", start: end).trackingEvents.count + 1)
    }

    @Test func aReplacedAdNeverFiresAndItsReplacementDoes() {
        let range = { (adBreaks: [AdBreak]) in MetadataDocument(dataRange: DataRange(start: t0 - 600_000, end: end + 60_000), adBreaks: adBreaks) }
        var player = ScriptedPlayer(range([twoAds]), at: t0 - 2000)
        player.tick(t0 - 2000)
        player.play(to: t0 + 10_000)
        #expect(player.apply(range([replaced])).isEmpty)
        #expect(player.session.pendingCount == 9)
        player.play(to: end + Fixture.adDuration + 2000)
        #expect(player.fired.types(ofAd: "a1") == Fixture.playbackTypes)
        #expect(player.fired.types(ofAd: "b2") == Fixture.playbackTypes)
        #expect(player.fired.types(ofAd: "a2").isEmpty)
        // No user action fires in a withdrawn ad either: only in the ad that replaced it.
        player.jump(to: end + 1000)
        let clicks = player.send(.click)
        #expect(clicks.map(\.adID) == ["b2", "b2"])
    }

    @Test func anAdTheDataRangeMovedPastIsKeptAndStillFiresWhenPlayed() {
        var player = ScriptedPlayer(MetadataDocument(dataRange: DataRange(start: t0 - 600_000, end: end + 60_000), adBreaks: [twoAds]), at: t0 - 2000)
        player.tick(t0 - 2000)
        // The range moves past both ads before they were played: neither is withdrawn.
        #expect(player.apply(MetadataDocument(dataRange: DataRange(start: end + 60_001, end: end + 120_000), adBreaks: [])).isEmpty)
        #expect(player.session.pendingCount == 2 * Fixture.playbackTypes.count)
        player.play(to: end + Fixture.adDuration + 2000)
        #expect(player.fired.types(ofAd: "a1") == Fixture.playbackTypes)
        #expect(player.fired.types(ofAd: "a2") == Fixture.playbackTypes)
    }

    @Test func aResumedSessionKeepsItsWithdrawnAdsWithdrawn() {
        let range = DataRange(start: t0 - 600_000, end: end + 60_000)
        var session = TrackingSession(retention: 600_000)
        _ = session.apply(MetadataDocument(dataRange: range, adBreaks: [twoAds]))
        _ = session.apply(MetadataDocument(dataRange: range, adBreaks: [replaced]))
        // The whole break was played while the daemon was down: only what was not withdrawn is due.
        var snapshot = session.snapshot(endpoints: SessionEndpoints(mediaURL: "m", manifestURL: "m", trackingURL: "t", sessionID: nil), savedAt: 0)
        snapshot.played = [[t0 - 1000, end + Fixture.adDuration + 1000]]
        let resumed = TrackingSession.resuming(snapshot, states: [:], retention: 600_000)
        #expect(Set(resumed.due.map(\.adID)) == ["a1", "b2"])
        #expect(resumed.due.count == 2 * Fixture.playbackTypes.count)
        #expect(resumed.session.schedule.adBreak(id: "p")?.ads.first { $0.id == "a2" }?.isWithdrawn == true)
    }
}
