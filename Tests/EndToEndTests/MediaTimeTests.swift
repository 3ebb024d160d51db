import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// A VOD on media time, played with `position` ticks through the real daemon against a loopback
/// ad service serving a Harmonic document whose times count from the start of the stream.
@Suite(.timeLimit(.minutes(5))) struct MediaTimeTests {
    /// A pre-roll at 0, a mid-roll at 1 min, a post-roll at 2 min: 12 s ads.
    static let midRoll: Milliseconds = 60_000
    static let postRoll: Milliseconds = 120_000
    static let end: Milliseconds = postRoll + 12_000

    static func vod(on service: AdService) -> MetadataDocument {
        MetadataDocument(
            dataRange: DataRange(start: 0, end: end),
            adBreaks: [
                Ads.adBreak(id: "pre", start: 0, on: service), Ads.adBreak(id: "mid", start: midRoll, on: service),
                Ads.adBreak(id: "post", start: postRoll, on: service),
            ],
            timeline: .mediaTime)
    }

    @Test func positionTicksFireThePreAndPostRollsAndASeekOverTheMidRollFiresNothing() async throws {
        try await withPlayback(serving: { $0.serve(Self.vod(on: $0)) }) { service, daemon in
            try await daemon.waitForStatus("the media-time document applied") { $0.timeline == .mediaTime }
            var feed = TickFeed(from: 0, positions: true)
            feed.play(to: 20_000)
            feed.line("seek-start")
            feed.jump(to: Self.midRoll + 20_000)
            feed.line("seek-end")
            feed.jump(to: Self.postRoll - 2_000)
            feed.play(to: Self.postRoll + 5_000)
            feed.line("pause")
            feed.wait(3_000)
            feed.line("play")
            feed.play(to: Self.end + 1_000)
            daemon.send(feed.lines)

            let report = try await daemon.waitForStatus("the post-roll complete") { $0.state(ofAd: "post-a1", .complete) == .done }
            #expect(report.timeline == .mediaTime)
            #expect(report.playhead == Self.end + 1_000)
            // Three 12 s breaks lie before the playhead.
            #expect(report.contentPosition == Self.end + 1_000 - 36_000)

            // A program-date-time tick on this session is refused, with the reason, on the socket.
            let reply = try await daemon.request("playhead 1675135534076")
            #expect(reply.contains("a program date time tick on a media-time session"), "\(reply)")
            let after = try await daemon.status()
            #expect(after.counters.badLines == 1)
            #expect(after.counters.ticks == feed.tickCount)
            #expect(after.playhead == Self.end + 1_000)

            let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
            #expect(human.stdout.contains("playhead      00:02:13.000"), "\(human.stdout)")
            #expect(human.stdout.contains("content       00:01:37.000 without ad breaks"), "\(human.stdout)")
            #expect(human.stdout.contains("data range    00:00:00.000 .. 00:02:12.000"), "\(human.stdout)")
            #expect(human.stdout.contains("ad break mid   00:01:00.000"), "\(human.stdout)")
            let watch = try await runBeaconctl(["watch", "--once", "--socket", daemon.socketPath])
            #expect(watch.stdout.contains("content       00:01:37.000"), "\(watch.stdout)")

            try await finish(daemon)
            #expect(daemon.stderrText.contains("reason=\"a program date time tick on a media-time session"), "\(daemon.stderrText.suffix(3000))")
            #expect(daemon.stderrText.contains("dataRange=00:00:00.000..00:02:12.000"), "\(daemon.stderrText.suffix(3000))")
            expectEachPlaybackEventOnce(service, ads: ["pre-a1"])
            #expect(service.beacons.filter { ($0.query ?? "").contains("ad=mid") }.isEmpty, "\(service.beaconSummary)")
            for type in Ads.playbackTypes {
                #expect(service.beaconCount(ad: "post-a1", type) == 1, "\(type) of the post-roll\n\(service.beaconSummary)")
            }
            #expect(service.beaconCount(ad: "post-a1", .pause) == 1, "\(service.beaconSummary)")
            #expect(service.beaconCount(ad: "post-a1", .resume) == 1, "\(service.beaconSummary)")
            #expect(service.beaconCount(ad: "pre-a1", .pause) == 0)
        }
    }

    @Test func afterKillNineTheResumedSessionStaysOnMediaTime() async throws {
        let state = try TemporaryDirectory()
        let environment = ["STATE_DIRECTORY": state.path]
        try await withAdService { service in
            service.serve(Self.vod(on: service))
            let arguments = ["--media-url", "\(service.baseURL)/live/master.m3u8?sessid=e2e", "--stdin"]
            var feed = TickFeed(from: 0, positions: true)
            try await withDaemon(arguments, environment: environment) { daemon in
                try await daemon.waitForStatus("the media-time document applied") { $0.timeline == .mediaTime }
                feed.play(to: 7_000)
                daemon.send(feed.takeLines())
                // Every event played so far done, not only the last: requests run side by side, and
                // one whose answer is not yet in the journal would rightly be sent again after the kill.
                try await daemon.waitForStatus("the pre-roll's events up to its midpoint done") { status in
                    [.impression, .start, .firstQuartile, .midpoint].allSatisfy { status.state(ofAd: "pre-a1", $0) == .done }
                }
                daemon.kill()
                _ = try await daemon.waitForExit()
            }
            // The restarted daemon gets no document: only the journal can say the session is on media time.
            service.answerMetadata { .status(500) }
            try await withDaemon(arguments, environment: environment) { daemon in
                try await daemon.waitForStatus("the session resumed on media time") { $0.session != nil && $0.timeline == .mediaTime }
                let reply = try await daemon.request("playhead 1675135534076")
                #expect(reply.contains("a program date time tick on a media-time session"), "\(reply)")
                feed.jump(to: 7_250)
                feed.play(to: 13_000)
                daemon.send(feed.takeLines())
                let report = try await daemon.waitForStatus("the pre-roll complete") { $0.state(ofAd: "pre-a1", .complete) == .done }
                #expect(report.contentPosition == 1_000)
                #expect(daemon.stderrLines.contains { $0.contains("session resumed from the journal") })
                try await finish(daemon)
            }
            expectEachPlaybackEventOnce(service, ads: ["pre-a1"])
        }
    }

    @Test func plainPositionLinesAreTakenAndAPlayheadRefusedOnStdinToo() async throws {
        try await withPlayback(serving: { $0.serve(Self.vod(on: $0)) }) { _, daemon in
            try await daemon.waitForStatus("the media-time document applied") { $0.timeline == .mediaTime }
            daemon.send(["position 30.5", "1675135534076", "position 31"])
            let report = try await daemon.waitForStatus("two positions taken, one playhead refused") {
                $0.counters.ticks == 2 && $0.counters.badLines == 1
            }
            #expect(report.playhead == 31_000)
            #expect(report.contentPosition == 19_000)
            try await finish(daemon)
            #expect(daemon.stderrText.contains("client=stdin"), "\(daemon.stderrText.suffix(3000))")
        }
    }

    @Test func aLaterDocumentOnProgramDateTimeIsRejectedAndTheSessionKeepsItsOwn() async throws {
        try await withPlayback(arguments: ["--metadata-interval", "1"], serving: { $0.serve(Self.vod(on: $0)) }) { service, daemon in
            try await daemon.waitForStatus("the media-time document applied") { $0.timeline == .mediaTime }
            service.serve(Ads.document([Ads.adBreak(id: "live", start: Ads.t0, on: service)]))
            let report = try await daemon.waitForStatus("the program-date-time document rejected") { $0.counters.metadataErrors > 0 }
            #expect(report.lastError == "metadata: rejected: the document is on programDateTime, the session on mediaTime")
            #expect(report.timeline == .mediaTime)
            #expect(report.dataRange == DataRange(start: 0, end: Self.end))
            #expect(report.adBreaks.map(\.id) == ["pre", "mid", "post"])
            try await finish(daemon)
        }
    }

    @Test func aProgramDateTimeSessionRefusesPositions() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: Ads.t0 + 5_000, on: $0)] }) { _, daemon in
            try await daemon.waitForStatus("the document applied") { $0.timeline == .programDateTime }
            let reply = try await daemon.request(#"{"position": 12.5}"#)
            #expect(reply.contains("a position tick on a program-date-time session"), "\(reply)")
            let report = try await daemon.status()
            #expect(report.counters.badLines == 1)
            #expect(report.counters.ticks == 0)
            #expect(report.contentPosition == nil)
            try await finish(daemon)
        }
    }
}
