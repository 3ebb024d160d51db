import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Testing

/// Metadata refreshes: rejected documents, ad breaks that leave the metadata and come back.
@Suite(.timeLimit(.minutes(5))) struct MetadataTests {
    let adBreakStart = Ads.t0 + 2_000

    @Test func aRejectedDocumentKeepsThePreviousState() async throws {
        try await withPlayback(arguments: ["--metadata-interval", "0.2"], adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) {
            service, daemon in
            try await daemon.waitForStatus("the pod known") { $0.adBreaks.map(\.id) == ["p1"] }

            service.serve(body: "<html>not json</html>")
            var report = try await daemon.waitForStatus("a rejected body") { $0.counters.metadataErrors >= 1 }
            #expect(report.adBreaks.map(\.id) == ["p1"])
            #expect(report.lastError?.contains("metadata") == true, "\(report.lastError ?? "nil")")

            service.serve(body: #"{"adBreaks": []}"#)
            // A refresh already under way may bring the previous body once more: wait for the new reason.
            report = try await daemon.waitForStatus("a body without dataRange rejected") {
                $0.lastError?.contains("dataRange") == true
            }
            #expect(report.adBreaks.map(\.id) == ["p1"])
            #expect(daemon.stderrLines.contains { $0.contains("metadata refresh failed") && $0.contains("dataRange") })

            // The ad break kept from before the rejections still fires.
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 14_000)
            daemon.send(feed.lines)
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
        }
    }

    @Test func anAdBreakGoneFromTheMetadataAndBackNeverFiresTwice() async throws {
        try await withPlayback(arguments: ["--metadata-interval", "0.2"], adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) {
            service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 14_000)
            daemon.send(feed.lines)
            try await daemon.waitForStatus("every playback event done") { report in
                Ads.playbackTypes.allSatisfy { report.state(ofAd: "p1-a1", $0) == .done }
            }

            // The ad break leaves the metadata: it is kept (retention), with its reporting states.
            service.serve(Ads.document([], rangeEnd: adBreakStart + 20_000))
            try await daemon.waitForStatus("the data range moved on") { $0.dataRange?.end == adBreakStart + 20_000 }
            let kept = try await daemon.status()
            #expect(kept.adBreaks.map(\.id) == ["p1"])
            #expect(kept.state(ofAd: "p1-a1", .complete) == .done)

            // Rewind over it, play it again, and let the metadata list it again.
            var replay = TickFeed(from: Ads.t0, at: feed.at + 250)
            replay.play(to: adBreakStart + 14_000)
            daemon.send(replay.lines)
            try await daemon.waitForStatus("the replay handled") { $0.counters.ticks == feed.tickCount + replay.tickCount }
            service.serve(Ads.document([Ads.adBreak(id: "p1", start: adBreakStart, on: service)], rangeEnd: adBreakStart + 21_000))
            try await daemon.waitForStatus("the pod listed again") { $0.dataRange?.end == adBreakStart + 21_000 }
            let fetches = try await daemon.status().counters.metadataFetches
            try await daemon.waitForStatus("2 more refreshes") { $0.counters.metadataFetches >= fetches + 2 }
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
        }
    }

    @Test func eventsOfUnknownTypeAreShownAndNeverFired() async throws {
        try await withPlayback(adBreaks: { service in
            var adBreak = Ads.adBreak(id: "p1", start: adBreakStart, adDuration: 8_000, userEvents: false, on: service)
            adBreak.ads[0].trackingEvents.append(
                TrackingEvent(
                    event: TrackingEventType(rawValue: "acceptInvitation"), startTime: adBreakStart + 1_000, duration: 0,
                    signalingURLs: [service.beaconURL(ad: "p1-a1", TrackingEventType(rawValue: "acceptInvitation"))]))
            return [adBreak]
        }) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 10_000)
            daemon.send(feed.lines)
            try await daemon.waitForStatus("complete done") { $0.state(ofAd: "p1-a1", .complete) == .done }
            let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
            let line = human.stdout.split(separator: "\n").first { $0.contains("acceptInvitation") }
            #expect(line?.contains("unknown") == true, "\(human.stdout)")
            try await finish(daemon)
            #expect(service.beaconCount(ad: "p1-a1", TrackingEventType(rawValue: "acceptInvitation")) == 0)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
        }
    }
}
