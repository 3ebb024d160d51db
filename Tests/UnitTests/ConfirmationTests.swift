import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// An event fires on the playhead alone only while its start lies inside its ad as last described
/// (`ad start <= event start <= ad start + duration + 500 ms`, for a positive duration). Beyond, it
/// waits for a later document to extend the ad over it, or is never fired once the data range
/// moves past the ad's end.
@Suite(.timeLimit(.minutes(2))) struct ConfirmationTests {
    let t0 = Fixture.t0
    /// The live edge cuts the ad here, as in Harmonic's iOS capture.
    let cut: Milliseconds = 468
    let reference = EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0)

    /// Ad "a" of ad break "p" at `t0` with a midpoint at `offset`; the data range ends `rangeEnd` after `t0`.
    func document(adDuration: Milliseconds, eventAt offset: Milliseconds, rangeEnd: Milliseconds) -> MetadataDocument {
        let event = TrackingEvent(event: .midpoint, startTime: t0 + offset, duration: 0, signalingURLs: ["http://127.0.0.1:4647/m"])
        let ad = Ad(id: "a", startTime: t0, duration: adDuration, trackingEvents: [event])
        return MetadataDocument(
            dataRange: DataRange(start: t0 - 600_000, end: t0 + rangeEnd), adBreaks: [AdBreak(id: "p", startTime: t0, duration: adDuration, ads: [ad])])
    }

    /// (ad duration, event start after the ad's, data range end after the ad's start, the hold)
    @Test(arguments: [
        (30_000, 0, 30_000, nil),
        (30_000, 15_000, 30_000, nil),
        (30_000, 30_500, 60_000, nil),
        (30_000, 30_501, 30_000, .awaitingConfirmation),
        (30_000, 30_501, 30_500, .awaitingConfirmation),
        (30_000, 30_501, 30_501, .neverConfirmed),
        (30_000, -1, 30_000, .awaitingConfirmation),
        (30_000, -1, 60_000, .neverConfirmed),
        (468, 15_000, 468, .awaitingConfirmation),
        (468, 15_000, 968, .awaitingConfirmation),
        (468, 15_000, 969, .neverConfirmed),
        (0, 15_000, 60_000, nil),
        (0, -1, 60_000, nil),
    ] as [(Milliseconds, Milliseconds, Milliseconds, HoldReason?)])
    func anEventIsHeldBackUnlessItsAdCoversIt(
        adDuration: Milliseconds, offset: Milliseconds, rangeEnd: Milliseconds, hold: HoldReason?
    ) {
        var session = TrackingSession(retention: 600_000)
        _ = session.apply(document(adDuration: adDuration, eventAt: offset, rangeEnd: rangeEnd))
        #expect(session.schedule[reference]?.heldBack == hold)
        #expect(session.pendingCount == (hold == nil ? 1 : 0))
    }

    /// Only playback-triggered events not fired yet are confirmed: user actions fire within the ad
    /// anyway, and what fired stays fired.
    @Test func userActionsAndFiredEventsAreNeverHeldBack() {
        let action = TrackingEvent(event: .mute, startTime: t0 + 15_000, duration: 0, signalingURLs: [])
        let ad = Ad(id: "a", startTime: t0, duration: cut, trackingEvents: [action])
        var schedule = AdSchedule()
        _ = schedule.merge([AdBreak(id: "p", startTime: t0, duration: cut, ads: [ad])], within: DataRange(start: t0, end: t0 + 60_000))
        #expect(schedule.confirm(within: DataRange(start: t0, end: t0 + 60_000)) == AdSchedule.ConfirmationChanges())
        #expect(schedule[reference]?.heldBack == nil)

        var fired = AdSchedule()
        _ = fired.merge([document(adDuration: 30_000, eventAt: 15_000, rangeEnd: 60_000).adBreaks[0]], within: DataRange(start: 0, end: 0))
        fired.setReportingState(.done, of: reference)
        _ = fired.merge([document(adDuration: cut, eventAt: 15_000, rangeEnd: 60_000).adBreaks[0]], within: DataRange(start: 0, end: 0))
        #expect(fired.confirm(within: DataRange(start: t0, end: t0 + 60_000)) == AdSchedule.ConfirmationChanges())
        #expect(fired[reference]?.heldBack == nil)
    }

    @Test func aWaitingEventWhoseWindowWasPlayedFiresWhenALaterDocumentExtendsTheAd() {
        var player = ScriptedPlayer(document(adDuration: cut, eventAt: 15_000, rangeEnd: cut), at: t0 - 2000)
        player.tick(t0 - 2000)
        player.play(to: t0 + 20_000)
        #expect(player.fired.isEmpty)
        #expect(player.session.schedule[reference]?.heldBack == .awaitingConfirmation)
        // Still cut at the live edge: still waiting.
        #expect(player.apply(document(adDuration: 10_000, eventAt: 15_000, rangeEnd: 10_000)).isEmpty)
        let late = player.apply(document(adDuration: 30_000, eventAt: 15_000, rangeEnd: 20_000))
        #expect(late.map(\.event) == [.midpoint])
        #expect(player.session.schedule[reference]?.heldBack == nil)
        player.play(to: t0 + 40_000)
        #expect(player.fired.count == 1)
    }

    @Test func aWaitingEventNotPlayedYetFiresOnThePlayheadOnceConfirmed() {
        var player = ScriptedPlayer(document(adDuration: cut, eventAt: 15_000, rangeEnd: cut), at: t0 - 2000)
        player.tick(t0 - 2000)
        #expect(player.apply(document(adDuration: 30_000, eventAt: 15_000, rangeEnd: 20_000)).isEmpty)
        #expect(player.session.pendingCount == 1)
        player.play(to: t0 + 14_750)
        #expect(player.fired.isEmpty)
        #expect(player.tick(t0 + 15_000).map(\.event) == [.midpoint])
    }

    @Test func anEventNeverConfirmedNeverFiresWhateverFollows() {
        var player = ScriptedPlayer(document(adDuration: cut, eventAt: 15_000, rangeEnd: cut), at: t0 - 2000)
        player.tick(t0 - 2000)
        // The range moves on and the ad is still 468 ms: it was cut short.
        #expect(player.apply(document(adDuration: cut, eventAt: 15_000, rangeEnd: 60_000)).isEmpty)
        #expect(player.session.schedule[reference]?.heldBack == .neverConfirmed)
        player.play(to: t0 + 40_000)
        #expect(player.apply(document(adDuration: 30_000, eventAt: 15_000, rangeEnd: 60_000)).isEmpty)
        player.jump(to: t0)
        player.play(to: t0 + 40_000)
        #expect(player.fired.isEmpty)
        #expect(player.session.schedule[reference]?.heldBack == .neverConfirmed)
    }

    @Test func aPendingEventWhoseAdIsShortenedWaitsAgain() {
        var player = ScriptedPlayer(document(adDuration: 30_000, eventAt: 15_000, rangeEnd: 30_000), at: t0 - 2000)
        player.tick(t0 - 2000)
        #expect(player.session.pendingCount == 1)
        #expect(player.apply(document(adDuration: 10_000, eventAt: 15_000, rangeEnd: 10_000)).isEmpty)
        #expect(player.session.pendingCount == 0)
        player.play(to: t0 + 20_000)
        #expect(player.fired.isEmpty)
    }

    @Test func aResumedSessionKeepsWaitingEventsWaiting() throws {
        var session = TrackingSession(retention: 600_000)
        _ = session.apply(document(adDuration: cut, eventAt: 15_000, rangeEnd: cut))
        var snapshot = session.snapshot(endpoints: SessionEndpoints(mediaURL: "m", manifestURL: "m", trackingURL: "t", sessionID: nil), savedAt: 0)
        snapshot.played = [[t0, t0 + 20_000]]
        var resumed = TrackingSession.resuming(snapshot, states: [:], retention: 600_000)
        #expect(resumed.due.isEmpty)
        #expect(resumed.session.schedule[reference]?.heldBack == .awaitingConfirmation)
        // A snapshot of an earlier release has no holds: confirmation is judged again on resume.
        snapshot.adBreaks[0].ads[0].trackingEvents[0].heldBack = nil
        resumed = TrackingSession.resuming(snapshot, states: [:], retention: 600_000)
        #expect(resumed.due.isEmpty)
        #expect(resumed.session.schedule[reference]?.heldBack == .awaitingConfirmation)
        let late = resumed.session.apply(document(adDuration: 30_000, eventAt: 15_000, rangeEnd: 20_000))
        #expect(late.map(\.event) == [.midpoint])
    }

    /// Harmonic's iOS capture: the second ad is cut to 468 ms at the live edge, its events run 30 s.
    @Test func harmonicsLiveEdgeCaptureHoldsTheCutAdsQuartilesAndComplete() throws {
        let file = Fixture.packageRoot.appendingPathComponent("../shared/fixtures/realworld/harmonic/ios-lib-sample-metadata.json").standardized
        guard FileManager.default.fileExists(atPath: file.path) else {
            print("skipped: \(file.path) is absent (the fixtures live in ../shared)")
            return
        }
        let body = Array(try Data(contentsOf: file))
        var session = TrackingSession(retention: 600_000)
        _ = session.apply(try MetadataDocument.decode(body))
        let ads = try #require(session.schedule.adBreaks.first?.ads)
        #expect(ads.count == 2)
        #expect(ads[0].trackingEvents.allSatisfy { $0.heldBack == nil })
        let held = ads[1].trackingEvents.filter { $0.heldBack == .awaitingConfirmation }.map(\.event)
        #expect(held == [.firstQuartile, .midpoint, .thirdQuartile, .complete])
    }
}
