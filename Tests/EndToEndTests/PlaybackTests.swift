import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Testing

/// Firing rules, judged from ticks piped to the real daemon's stdin.
@Suite(.timeLimit(.minutes(5))) struct PlaybackTests {
    /// The ad break every test plays: it starts 5 s after the feed does.
    let adBreakStart = Ads.t0 + 5_000

    @Test func normalPlayFiresEachPlaybackEventOnce() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, ads: 2, on: $0)] }) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 24_000 + 3_000)
            daemon.send(feed.lines)

            let ads = ["p1-a1", "p1-a2"]
            try await eventually("12 beacons at the sink") { service.beacons.count >= 12 }
            // The ticks after the ad break may still be on their way when its last beacon is done.
            let report = try await daemon.waitForStatus("every playback event done and every tick counted") { report in
                ads.allSatisfy { ad in Ads.playbackTypes.allSatisfy { report.state(ofAd: ad, $0) == .done } }
                    && report.counters.ticks == feed.tickCount
            }
            for ad in ads {
                for type in Ads.userTypes {
                    #expect(report.state(ofAd: ad, type) == .idle, "\(type) of \(ad)")
                }
            }
            #expect(report.counters.ticks == feed.tickCount)
            #expect(report.counters.beaconsSent == 12)

            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ads)
            #expect(service.beacons.count == 12, "\(service.beaconSummary)")
        }
    }

    @Test func sparseTicksStillFireEveryQuartile() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 12_000 + 8_000, step: 5_000)
            daemon.send(feed.lines)
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
        }
    }

    @Test func seekingOverAPodFiresNothingOfIt() async throws {
        try await withPlayback(adBreaks: {
            [Ads.adBreak(id: "skipped", start: adBreakStart, on: $0), Ads.adBreak(id: "played", start: Ads.t0 + 30_000, on: $0)]
        }) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: Ads.t0 + 4_000)
            feed.line("seek-start")
            feed.jump(to: Ads.t0 + 10_000)
            feed.jump(to: Ads.t0 + 20_000)
            feed.line("seek-end")
            feed.play(to: Ads.t0 + 45_000)
            daemon.send(feed.lines)

            try await daemon.waitForStatus("the pod after the seek played") { $0.state(ofAd: "played-a1", .complete) == .done }
            let report = try await daemon.status()
            for event in report.events(ofAd: "skipped-a1") {
                #expect(event.reportingState == .idle, "\(event.event) of the skipped ad")
            }
            try await finish(daemon)
            #expect(service.beacons(ad: "skipped-a1", .impression).isEmpty)
            let skipped = service.beacons.filter { ($0.query ?? "").contains("ad=skipped") }
            #expect(skipped.count == 0, "\(service.beaconSummary)")
            expectEachPlaybackEventOnce(service, ads: ["played-a1"])
        }
    }

    @Test func seekingIntoAnAdSkipsWhatLiesBeforeTheLanding() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) { service, daemon in
            // 12 s ad: start at +0, firstQuartile at +3 s, midpoint at +6 s; the seek lands at +5 s.
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: Ads.t0 + 4_000)
            feed.line("seek-start")
            feed.jump(to: adBreakStart + 5_000)
            feed.line("seek-end")
            feed.play(to: adBreakStart + 15_000)
            daemon.send(feed.lines)
            try await finish(daemon)

            #expect(service.beaconCount(ad: "p1-a1", .impression) == 1)
            #expect(service.beaconCount(ad: "p1-a1", .start) == 0)
            #expect(service.beaconCount(ad: "p1-a1", .firstQuartile) == 0)
            #expect(service.beaconCount(ad: "p1-a1", .midpoint) == 1)
            #expect(service.beaconCount(ad: "p1-a1", .thirdQuartile) == 1)
            #expect(service.beaconCount(ad: "p1-a1", .complete) == 1)
        }
    }

    @Test func pauseAndPlayFireOnlyWithinAnAd() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: Ads.t0 + 1_000)
            feed.line("pause")  // content: nothing
            feed.wait(2_000)
            feed.line("play")
            feed.play(to: adBreakStart + 2_000)
            feed.line("pause")  // in the ad: pause
            feed.wait(3_000)
            feed.tick()
            feed.line("play")  // resume
            feed.play(to: adBreakStart + 16_000)
            feed.line("pause")  // after the ad: nothing
            feed.wait(1_000)
            feed.line("play")
            feed.play(to: adBreakStart + 17_000)
            daemon.send(feed.lines)
            try await finish(daemon)

            #expect(service.beaconCount(ad: "p1-a1", .pause) == 1, "\(service.beaconSummary)")
            #expect(service.beaconCount(ad: "p1-a1", .resume) == 1, "\(service.beaconSummary)")
            for type in Ads.userTypes where type != .pause && type != .resume {
                #expect(service.beaconCount(ad: "p1-a1", type) == 0, "\(type)")
            }
            // The pause interrupts playback, but the ad is still played to its end afterwards.
            for type in Ads.playbackTypes {
                #expect(service.beaconCount(ad: "p1-a1", type) == 1, "\(type)")
            }
        }
    }

    @Test func rewindingOverAPlayedAdFiresNothingTwice() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 14_000)
            feed.jump(to: Ads.t0 + 1_000)
            feed.play(to: adBreakStart + 14_000)
            daemon.send(feed.lines)
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
        }
    }

    @Test func lateMetadataFiresWhatWasAlreadyPlayedOnce() async throws {
        try await withPlayback(arguments: ["--metadata-interval", "0.2"], adBreaks: { _ in [] }) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 14_000)
            daemon.send(feed.lines)
            try await daemon.waitForStatus("every tick handled") { $0.counters.ticks == feed.tickCount }
            #expect(service.beacons.isEmpty)

            // The service now lists the ad break that was played before it knew of it.
            service.serve(Ads.document([Ads.adBreak(id: "late", start: adBreakStart, on: service)], rangeEnd: adBreakStart + 14_000))
            try await eventually("the late pod's 6 beacons") { service.beacons.count >= 6 }
            // A changed document merges again: what was fired stays fired.
            service.serve(Ads.document([Ads.adBreak(id: "late", start: adBreakStart, on: service)], rangeEnd: adBreakStart + 20_000))
            let fetches = try await daemon.status().counters.metadataFetches
            try await daemon.waitForStatus("3 more metadata refreshes") { $0.counters.metadataFetches >= fetches + 3 }
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["late-a1"])
        }
    }

    @Test func landingJustAfterAnAdStartStillFiresStart() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: Ads.t0 + 3_000)
            feed.line("seek-start")
            feed.jump(to: adBreakStart + 300)
            feed.line("seek-end")
            feed.play(to: adBreakStart + 14_000)
            daemon.send(feed.lines)
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
        }
    }

    @Test func fastForwardAndJumpsAreNotPlayback() async throws {
        try await withPlayback(adBreaks: {
            [
                Ads.adBreak(id: "fast", start: adBreakStart, on: $0), Ads.adBreak(id: "jumped", start: Ads.t0 + 30_000, on: $0),
                Ads.adBreak(id: "played", start: Ads.t0 + 50_000, on: $0),
            ]
        }) { service, daemon in
            // Through the first ad break at rate 2 (the player says so), through the second in 5 s jumps every 250 ms.
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart - 1_000)
            feed.line("rate 2")
            var at = feed.at
            var lines: [String] = []
            for playhead in stride(from: adBreakStart - 500, through: adBreakStart + 14_000, by: 500) {
                at += 250
                lines.append("{\"playhead\": \(playhead), \"at\": \(at), \"rate\": 2}")
            }
            lines.append("rate 1")
            for playhead in stride(from: Ads.t0 + 25_000, through: Ads.t0 + 45_000, by: 5_000) {
                at += 250
                lines.append("{\"playhead\": \(playhead), \"at\": \(at)}")
            }
            // Then plain 1x play through a third ad break, which fires.
            var normal = TickFeed(from: Ads.t0 + 48_000, at: at + 250)
            normal.play(to: Ads.t0 + 64_000)
            daemon.send(feed.lines + lines + normal.lines)
            try await finish(daemon)
            let wrongly = service.beacons.filter { !($0.query ?? "").contains("ad=played") }
            #expect(wrongly.count == 0, "\(service.beaconSummary)")
            expectEachPlaybackEventOnce(service, ads: ["played-a1"])
        }
    }

    @Test func userActionsWithinAnAdFireEveryTime() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 1_000)
            for line in ["mute", "unmute", "mute", "click", "expand", "collapse", "skip", "rewind"] { feed.line(line) }
            feed.play(to: adBreakStart + 14_000)
            feed.line("click")  // after the ad's end and its 500 ms grace: nothing
            daemon.send(feed.lines)
            try await finish(daemon)
            let expected: [TrackingEventType: Int] = [
                .mute: 2, .unmute: 1, .clickTracking: 1, .clickAbstractType: 1, .playerExpand: 1, .playerCollapse: 1,
                .skip: 1, .rewind: 1, .pause: 0, .resume: 0,
            ]
            for (type, count) in expected {
                #expect(service.beaconCount(ad: "p1-a1", type) == count, "\(type)\n\(service.beaconSummary)")
            }
        }
    }
}
