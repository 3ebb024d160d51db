import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// Companion-ad, icon and verification tracking: kept on its ad, listed in status, never fired
/// from time; an ad's verificationNotExecuted goes once with its impression, `[REASON]` = 2.
@Suite(.timeLimit(.minutes(2))) struct AttachedTrackingTests {
    let t0 = Fixture.t0

    /// A standard ad with companion, icon and verification tracking, and verificationNotExecuted.
    func ad(id: String = "a1", start: Milliseconds, verification: Bool = true) -> Ad {
        var ad = Fixture.ad(id: id, start: start)
        ad.attachedTracking = [
            AttachedTracking(source: .companion, event: .clickTracking, startTime: start, signalingURLs: ["http://127.0.0.1:4647/c"]),
            AttachedTracking(source: .companion, event: .creativeView, startTime: start, signalingURLs: ["http://127.0.0.1:4647/cv"]),
            AttachedTracking(source: .icon, event: AttachedTracking.iconView, startTime: nil, signalingURLs: ["http://127.0.0.1:4647/iv"]),
            AttachedTracking(source: .icon, event: AttachedTracking.iconClick, startTime: nil, signalingURLs: ["http://127.0.0.1:4647/ic"]),
        ]
        if verification {
            ad.trackingEvents.append(
                TrackingEvent(
                    event: .verificationNotExecuted, startTime: start, duration: Fixture.adDuration,
                    signalingURLs: ["http://127.0.0.1:4647/v?r=[REASON]&id=\(id)", "http://127.0.0.1:4647/w?r=%5BREASON%5D"]))
        }
        return ad
    }

    @Test func verificationNotExecutedGoesOnceWithTheImpressionWithReason2() {
        var player = ScriptedPlayer(Fixture.document([Fixture.adBreak(id: "p", ads: [ad(start: t0)])]), at: t0 - 2000)
        player.play(to: t0 - 250)
        #expect(player.fired.isEmpty)
        let first = player.tick(t0 + 250)
        #expect(first.types == [.impression, .start, .verificationNotExecuted])
        let verification = first[2]
        #expect(
            verification.signalingURLs == ["http://127.0.0.1:4647/v?r=[REASON]&id=a1", "http://127.0.0.1:4647/w?r=%5BREASON%5D"],
            "as in the metadata: its delivery fills [REASON] in")
        let context = MacroContext(
            verification, in: player.session.schedule, timeline: .programDateTime, dataRange: nil, playhead: nil, occurredAt: t0,
            contentPosition: nil)
        var random = SeededGenerator(seed: 1)
        let sent = verification.signalingURLs.map {
            MacroExpansion.expand($0, context: context, settings: MacroSettings(deviceUserAgent: "beaconctl"), using: &random)
        }
        #expect(sent == ["http://127.0.0.1:4647/v?r=2&id=a1", "http://127.0.0.1:4647/w?r=2"])
        #expect(verification.eventStart == t0)
        #expect(player.session.state(of: .verificationNotExecuted, adBreak: "p", ad: "a1") == .connecting)
        // Once: through the rest of the ad, a seek back over its start, a refresh and a click.
        player.play(to: t0 + 31_000)
        player.jump(to: t0 - 1000)
        player.play(to: t0 + 5000)
        player.apply(Fixture.document([Fixture.adBreak(id: "p", ads: [ad(start: t0)])]))
        player.send(.click)
        #expect(player.fired.types.filter { $0 == .verificationNotExecuted }.count == 1)
        #expect(player.fired.types(ofAd: "a1").filter { Fixture.playbackTypes.contains($0) } == Fixture.playbackTypes)
    }

    /// Fired from late metadata too: wherever the impression fires, the verification goes with it.
    @Test func verificationNotExecutedGoesWithALateImpression() {
        var player = ScriptedPlayer(Fixture.document([]), at: t0 - 2000)
        player.play(to: t0 + 2000)
        let late = player.apply(Fixture.document([Fixture.adBreak(id: "p", ads: [ad(start: t0)])]))
        #expect(late.types.contains(.verificationNotExecuted))
        #expect(late.types.filter { $0 == .verificationNotExecuted }.count == 1)
    }

    @Test func withoutVerificationNothingMoreIsSent() {
        var player = ScriptedPlayer(Fixture.document([Fixture.adBreak(id: "p", ads: [ad(start: t0, verification: false)])]), at: t0 - 2000)
        player.play(to: t0 + 31_000)
        #expect(player.fired.types == Fixture.playbackTypes)
    }

    /// Not even an impression playing brings a verificationNotExecuted of another ad.
    @Test func verificationNotExecutedBelongsToItsOwnAd() {
        let adBreak = Fixture.adBreak(id: "p", ads: [ad(id: "a1", start: t0, verification: false), ad(id: "a2", start: t0 + 30_000)])
        var player = ScriptedPlayer(Fixture.document([adBreak]), at: t0 - 2000)
        player.play(to: t0 + 29_000)
        #expect(!player.fired.types.contains(.verificationNotExecuted))
        player.play(to: t0 + 31_000)
        #expect(player.fired.filter { $0.event == .verificationNotExecuted }.map(\.adID) == ["a2"])
    }

    /// Companion, icon and verification tracking never fires: not from time, not on any action.
    @Test func attachedTrackingNeverFires() {
        var player = ScriptedPlayer(Fixture.document([Fixture.adBreak(id: "p", ads: [ad(start: t0)])]), at: t0 - 2000)
        player.play(to: t0 + 1000)
        player.send(.click)
        player.send(.mute)
        player.send(.pause)
        player.send(.play)
        player.play(to: t0 + 31_000)
        let attached = Set(ad(start: t0).attachedTracking.flatMap(\.signalingURLs))
        #expect(player.fired.allSatisfy { Set($0.signalingURLs).isDisjoint(with: attached) })
        #expect(player.session.schedule.adBreaks[0].ads[0].attachedTracking == ad(start: t0).attachedTracking)
    }

    /// A restart resumes the verification's state: sent before, never sent again.
    @Test func aResumedSessionDoesNotSendItAgain() {
        var player = ScriptedPlayer(Fixture.document([Fixture.adBreak(id: "p", ads: [ad(start: t0)])]), at: t0 - 2000)
        player.play(to: t0 + 500)
        let snapshot = player.session.snapshot(endpoints: SessionEndpoints(mediaURL: "m", manifestURL: "m", trackingURL: "t", sessionID: "s"), savedAt: 0)
        let states = Dictionary(uniqueKeysWithValues: player.fired.map { ($0.reference, ReportingState.done) })
        let (resumed, due) = TrackingSession.resuming(snapshot, states: states, retention: 600_000)
        #expect(due.isEmpty)
        #expect(resumed.state(of: .verificationNotExecuted, adBreak: "p", ad: "a1") == .done)
        #expect(resumed.schedule.adBreaks[0].ads[0].attachedTracking == ad(start: t0).attachedTracking)
    }

    /// Listed under its ad: the human view, and the status JSON.
    @Test func statusListsItUnderItsAd() throws {
        let adBreak = Fixture.adBreak(id: "p", ads: [ad(start: t0)])
        let report = StatusReport(
            version: "0.1.0", state: "playing", session: nil, playhead: t0, dataRange: nil, adBreaks: [adBreak], counters: .init())
        let lines = StatusView.render(report).split(separator: "\n").map(String.init)
        let adLine = try #require(lines.firstIndex { $0.hasPrefix("  ad a1") })
        let listed = lines[adLine...].filter { $0.hasPrefix("    listed") }
        #expect(
            listed == [
                "    listed     clickTracking      +0.0s     1 URL   companion",
                "    listed     creativeView       +0.0s     1 URL   companion",
                "    listed     iconViewTracking   -         1 URL   icon",
                "    listed     iconClickTracking  -         1 URL   icon",
            ], "\(lines)")
        #expect(lines.contains { $0.hasPrefix("    idle       verificationNotExecuted  +0.0s     2 URLs") }, "\(lines)")
        let decoded = try StatusReport.decode(jsonLine: report.jsonLine())
        #expect(decoded.adBreaks[0].ads[0].attachedTracking == adBreak.ads[0].attachedTracking)
        #expect(report.jsonLine().contains(#""attachedTracking":[{"#))
    }

    /// The session snapshot keeps it across a restart; one of an earlier release, without it, still reads.
    @Test func theSnapshotKeepsIt() throws {
        let snapshot = SessionSnapshot(
            endpoints: SessionEndpoints(mediaURL: "m", manifestURL: "m", trackingURL: "t", sessionID: "s"),
            adBreaks: [Fixture.adBreak(id: "p", ads: [ad(start: t0)])], dataRange: nil, played: [], playhead: nil, savedAt: 0)
        let read = try JSONDecoder().decode(SessionSnapshot.self, from: Data(snapshot.jsonBytes()))
        #expect(read.adBreaks == snapshot.adBreaks)
        let earlier = #"{"id": "a", "startTime": 1, "duration": 2, "trackingEvents": []}"#
        #expect(try JSONDecoder().decode(Ad.self, from: Data(earlier.utf8)).attachedTracking.isEmpty)
    }
}
