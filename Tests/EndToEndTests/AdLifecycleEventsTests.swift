import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// The ad lifecycle through the real binary: ad breaks and ads entered and left in the event
/// history and its live stream, the placement in status, the ad beacons unchanged.
@Suite(.timeLimit(.minutes(5))) struct AdLifecycleEventsTests {
    /// Two ad breaks of two 12 s ads: p1 5 s into the feed, p2 60 s into it.
    let p1 = Ads.t0 + 5_000
    let p2 = Ads.t0 + 60_000

    @Test func aBreakPlayedThroughAndASeekOutOfAnotherAreRecordedAndStreamedInOrder() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: p1, ads: 2, on: $0), Ads.adBreak(id: "p2", start: p2, ads: 2, on: $0)] }) {
            service, daemon in
            let follower = try ChildProcess(executable: BeaconctlBinary.path, arguments: ["events", "--follow", "--json", "--socket", daemon.socketPath])
            defer { follower.kill() }
            try await eventually("the follower connected") { !follower.stdout.lines.isEmpty }

            var feed = TickFeed(from: Ads.t0)
            feed.play(to: p2 + 2_000)
            daemon.send(feed.takeLines())
            let mid = try await daemon.waitForStatus("the playhead 2 s into p2's first ad") { $0.playhead == p2 + 2_000 }
            let placement = try #require(mid.adPlacement)
            #expect(placement.adBreak == AdBreakSummary(id: "p2", index: 2, startTime: p2, duration: 24_000, contentOffset: 36))
            #expect(placement.ad == AdSummary(id: "p2-a1", adBreakID: "p2", position: 1, startTime: p2, duration: 12_000))
            #expect(placement.offsetInAdBreak == 2_000)
            #expect(placement.offsetInAd == 2_000)
            let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
            #expect(human.stdout.contains("in ad break   p2 (#2) +2.0s of 24.0s   ad p2-a1 (1 in the break) +2.0s of 12.0s"), "\(human.stdout)")

            feed.line("seek-start")
            feed.jump(to: Ads.t0 + 120_000)
            feed.line("seek-end")
            feed.play(to: Ads.t0 + 122_000)
            daemon.send(feed.takeLines())
            let after = try await daemon.waitForStatus("the playhead past the seek") { $0.playhead == Ads.t0 + 122_000 }
            #expect(after.adPlacement == nil)

            let expected: [(Int, String, String)] = [
                (306101, "adBreakStarted", "p1"), (306102, "adStarted", "p1-a1"), (306103, "adCompleted", "p1-a1"),
                (306102, "adStarted", "p1-a2"), (306103, "adCompleted", "p1-a2"), (306105, "adBreakCompleted", "p1"),
                (306101, "adBreakStarted", "p2"), (306102, "adStarted", "p2-a1"), (306104, "adSkipped", "p2-a1"),
                (306105, "adBreakCompleted", "p2"),
            ]
            // The ad lifecycle's codes; the playback's own (seek, ad progress) have others.
            func lifecycle(_ entries: [EventEntry]) -> [(Int, String, String)] {
                entries.filter { (306101...306105).contains($0.code) }.map { ($0.code, $0.name, $0.details["ad"] ?? $0.details["adBreak"] ?? "-") }
            }
            let json = try await runBeaconctl(["events", "--json", "--socket", daemon.socketPath])
            #expect(json.status == 0, "\(json.stderr)")
            let entries = try json.stdout.split(separator: "\n").map { try EventEntry.decode(jsonLine: String($0)) }
            #expect(lifecycle(entries).elementsEqual(expected, by: ==), "\(json.stdout)")
            let p2Started = try #require(entries.first { $0.name == "adBreakStarted" && $0.details["adBreak"] == "p2" })
            #expect(p2Started.details == ["adBreak": "p2", "index": "2", "contentOffset": "36.0", "duration": "24000"])
            #expect(entries.first { $0.name == "adSkipped" }?.details == ["adBreak": "p2", "ad": "p2-a1", "position": "1"])
            #expect(entries.filter { $0.code / 1000 == 306 }.allSatisfy { $0.severity == .info })

            try await eventually("the follower streamed every lifecycle entry") { lifecycle(try follower.stdout.lines.map(EventEntry.decode(jsonLine:))).count == expected.count }
            #expect(lifecycle(try follower.stdout.lines.map(EventEntry.decode(jsonLine:))).elementsEqual(expected, by: ==), "\(follower.stdout.text)")

            try await finish(daemon)
            // The ad beacons are those of the playback: p1's ads played through, p2's first ad left after 2 s.
            expectEachPlaybackEventOnce(service, ads: ["p1-a1", "p1-a2"])
            #expect(service.beaconCount(ad: "p2-a1", .impression) == 1)
            #expect(service.beaconCount(ad: "p2-a1", .start) == 1)
            for type in [TrackingEventType.firstQuartile, .midpoint, .thirdQuartile, .complete] {
                #expect(service.beaconCount(ad: "p2-a1", type) == 0, "\(type)")
            }
            #expect(service.beacons.filter { ($0.query ?? "").contains("ad=p2-a2") }.isEmpty)
        }
    }

    @Test func anUnloadInsideAnAdSkipsItAndCompletesItsAdBreakBeforeTheSessionEnds() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: p1, on: $0)] }) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: p1 + 4_000)
            daemon.send(feed.lines)
            try await daemon.waitForStatus("the playhead inside the ad") { $0.adPlacement?.ad?.id == "p1-a1" }
            let unload = try await runBeaconctl(["send", "--socket", daemon.socketPath, "unload"])
            #expect(unload.status == 0, "\(unload.stderr)")
            try await daemon.waitForStatus("idle after unload") { $0.state == "idle" }
            let json = try await runBeaconctl(["events", "--json", "--socket", daemon.socketPath])
            let names = try json.stdout.split(separator: "\n").map { try EventEntry.decode(jsonLine: String($0)).name }
            let told = names.filter { ["adBreakStarted", "adStarted", "adCompleted", "adSkipped", "adBreakCompleted", "sessionEnded"].contains($0) }
            #expect(told == ["adBreakStarted", "adStarted", "adSkipped", "adBreakCompleted", "sessionEnded"], "\(names)")
            try await finish(daemon)
            #expect(service.beaconCount(ad: "p1-a1", .complete) == 0)
        }
    }
}
