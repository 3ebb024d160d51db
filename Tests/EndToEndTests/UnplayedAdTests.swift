import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Testing

/// No beacon for an ad that was not played, through the real daemon: a tick on another clock is
/// no playback, a re-signed URL is the same event, a withdrawn ad never fires, and an event beyond
/// its ad as described waits for the metadata to confirm it.
@Suite(.timeLimit(.minutes(5))) struct UnplayedAdTests {
    let adBreakStart = Ads.t0 + 5_000

    /// A 12 s ad `id` at `start`, its URLs carrying `extra`, described `duration` long (cut at the
    /// live edge when shorter than its events run).
    func ad(_ id: String, start: Milliseconds, duration: Milliseconds = 12_000, extra: String = "", on service: AdService) -> Ad {
        var ad = StandardAd.make(id: id, start: start, duration: 12_000, userTypes: []) { [service.beaconURL(ad: id, $0, extra: extra)] }
        ad.duration = duration
        return ad
    }

    func document(_ ads: [Ad], rangeEnd: Milliseconds) -> MetadataDocument {
        Ads.document([AdBreak(id: "p1", startTime: adBreakStart, duration: 24_000, ads: ads)], rangeEnd: rangeEnd)
    }

    /// Finding 5a: ticks carrying `at` 2 h behind, then a plain tick 45 min ahead: the two ad
    /// breaks in between were never played and fire nothing.
    @Test func aPlainTickAfterTicksOnThePlayersClockIsNoPlayback() async throws {
        let skipped = [Ads.t0 + 600_000, Ads.t0 + 1_200_000]
        try await withPlayback(adBreaks: { service in
            [Ads.adBreak(id: "played", start: adBreakStart, on: service)]
                + skipped.enumerated().map { Ads.adBreak(id: "skipped\($0.offset + 1)", start: $0.element, userEvents: false, on: service) }
        }) { service, daemon in
            try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 3 }
            var feed = TickFeed(from: Ads.t0, at: WallClock.now() - 7_200_000)
            feed.play(to: adBreakStart + 14_000)
            daemon.send(feed.lines)
            try await daemon.waitForStatus("the recorded ticks handled") { $0.counters.ticks == feed.tickCount }
            let landing = Ads.t0 + 2_700_000
            daemon.send(["{\"playhead\": \(landing)}", "{\"playhead\": \(landing + 250)}"])
            try await daemon.waitForStatus("the plain ticks handled") { $0.counters.ticks == feed.tickCount + 2 }
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["played-a1"])
            let unplayed = service.beacons.filter { ($0.query ?? "").contains("ad=skipped") }
            #expect(unplayed.isEmpty, "\(unplayed.count) beacons of unplayed ad breaks\n\(service.beaconSummary)")
        }
    }

    /// Finding 5b: a refresh re-signs every URL while the ad plays: each event is sent once, those
    /// fired before with the old signature, the others with the new one.
    @Test func reSignedURLsFireEachEventOnce() async throws {
        try await withPlayback(
            arguments: ["--metadata-interval", "0.2"],
            serving: { service in service.serve(document([ad("p1-a1", start: adBreakStart, extra: "&sig=1", on: service)], rangeEnd: adBreakStart + 12_000)) }
        ) { service, daemon in
            try await daemon.waitForStatus("the metadata applied") { !$0.adBreaks.isEmpty }
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 4_000)
            daemon.send(feed.takeLines())
            try await daemon.waitForStatus("the first quartile done") { $0.state(ofAd: "p1-a1", .firstQuartile) == .done }

            service.serve(document([ad("p1-a1", start: adBreakStart, extra: "&sig=2", on: service)], rangeEnd: adBreakStart + 12_001))
            let report = try await daemon.waitForStatus("the re-signed document applied") { $0.dataRange?.end == adBreakStart + 12_001 }
            let impression = try #require(report.events(ofAd: "p1-a1").first { $0.event == .impression })
            #expect(impression.signalingURLs == [service.beaconURL(ad: "p1-a1", .impression, extra: "&sig=1")])
            #expect(impression.currentSignalingURLs == [service.beaconURL(ad: "p1-a1", .impression, extra: "&sig=2")])
            let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
            #expect(human.stdout.contains("now in the metadata, never sent: \(service.beaconURL(ad: "p1-a1", .impression, extra: "&sig=2"))"), "\(human.stdout)")

            feed.play(to: adBreakStart + 14_000)
            daemon.send(feed.lines)
            try await daemon.waitForStatus("complete done") { $0.state(ofAd: "p1-a1", .complete) == .done }
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
            #expect(service.beacons.count == 6, "\(service.beaconSummary)")
            for (type, signature) in [(TrackingEventType.impression, "sig=1"), (.firstQuartile, "sig=1"), (.midpoint, "sig=2"), (.complete, "sig=2")] {
                #expect(service.beacons(ad: "p1-a1", type).allSatisfy { ($0.query ?? "").contains(signature) }, "\(type)")
            }
        }
    }

    /// Finding 5b: the second ad is replaced in the metadata before its break plays: none of its
    /// beacons is sent, its replacement's are, and status shows it withdrawn.
    @Test func anAdReplacedBeforeItPlaysNeverFires() async throws {
        try await withPlayback(
            arguments: ["--metadata-interval", "0.2"],
            serving: { service in
                service.serve(document([ad("p1-a1", start: adBreakStart, on: service), ad("p1-a2", start: adBreakStart + 12_000, on: service)], rangeEnd: adBreakStart + 24_000))
            }
        ) { service, daemon in
            try await daemon.waitForStatus("the metadata applied") { !$0.adBreaks.isEmpty }
            service.serve(document([ad("p1-a1", start: adBreakStart, on: service), ad("p1-b2", start: adBreakStart + 12_000, on: service)], rangeEnd: adBreakStart + 24_001))
            let report = try await daemon.waitForStatus("the replacement applied") { $0.dataRange?.end == adBreakStart + 24_001 }
            #expect(report.events(ofAd: "p1-a2").allSatisfy { $0.heldBack == .withdrawn }, "\(report.jsonLine())")
            let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
            #expect(human.stdout.contains("ad p1-a2") && human.stdout.contains("WITHDRAWN from the metadata before it played"), "\(human.stdout)")

            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 26_000)
            daemon.send(feed.lines)
            try await daemon.waitForStatus("the replacement's complete done") { $0.state(ofAd: "p1-b2", .complete) == .done }
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1", "p1-b2"])
            let withdrawn = service.beacons.filter { ($0.query ?? "").contains("ad=p1-a2") }
            #expect(withdrawn.isEmpty, "\(withdrawn.count) beacons of the withdrawn ad\n\(service.beaconSummary)")
        }
    }

    /// A kill -9 after a refresh re-signed one ad and withdrew another: the restarted daemon
    /// resumes both as they were. Nothing fired is sent again, and the withdrawn ad stays
    /// withdrawn even when a later document lists it again.
    @Test func aRestartKeepsReSignedEventsFiredAndWithdrawnAdsWithdrawn() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        try await withAdService { service in
            service.serve(
                document([ad("p1-a1", start: adBreakStart, extra: "&sig=1", on: service), ad("p1-a2", start: adBreakStart + 12_000, on: service)],
                    rangeEnd: adBreakStart + 24_000))
            let arguments = ["--media-url", "\(service.baseURL)/live/master.m3u8?sessid=e2e", "--stdin", "--metadata-interval", "0.2"]
            let environment = ["STATE_DIRECTORY": state.path]
            var feed = TickFeed(from: Ads.t0)
            try await withDaemon(arguments, environment: environment) { daemon in
                try await daemon.waitForStatus("the metadata applied") { !$0.adBreaks.isEmpty }
                feed.play(to: adBreakStart + 4_000)
                daemon.send(feed.takeLines())
                try await daemon.waitForStatus("the first quartile done") { $0.state(ofAd: "p1-a1", .firstQuartile) == .done }
                service.serve(
                    document([ad("p1-a1", start: adBreakStart, extra: "&sig=2", on: service), ad("p1-b2", start: adBreakStart + 12_000, on: service)],
                        rangeEnd: adBreakStart + 24_001))
                let applied = try await daemon.waitForStatus("the refresh applied") { $0.dataRange?.end == adBreakStart + 24_001 }
                // Saved after each refresh: one more makes sure the snapshot holds this one.
                try await daemon.waitForStatus("one more refresh") { $0.counters.metadataFetches > applied.counters.metadataFetches }
                daemon.kill()
                _ = try await daemon.waitForExit()
            }
            service.serve(
                document(
                    [ad("p1-a1", start: adBreakStart, extra: "&sig=2", on: service), ad("p1-a2", start: adBreakStart + 12_000, on: service),
                        ad("p1-b2", start: adBreakStart + 12_000, on: service)], rangeEnd: adBreakStart + 24_002))
            try await withDaemon(arguments, environment: environment) { daemon in
                try await daemon.waitForStatus("resumed, the ad listed again") { $0.dataRange?.end == adBreakStart + 24_002 }
                feed.play(to: adBreakStart + 26_000)
                daemon.send(feed.takeLines())
                let report = try await daemon.waitForStatus("the replacement's complete done") { $0.state(ofAd: "p1-b2", .complete) == .done }
                #expect(daemon.stderrLines.contains { $0.contains("session resumed from the journal") })
                #expect(report.events(ofAd: "p1-a2").allSatisfy { $0.heldBack == .withdrawn }, "\(report.jsonLine())")
                try await finish(daemon)
            }
            expectEachPlaybackEventOnce(service, ads: ["p1-a1", "p1-b2"])
            #expect(service.beacons.filter { ($0.query ?? "").contains("ad=p1-a2") }.isEmpty, "\(service.beaconSummary)")
            for (type, signature) in [(TrackingEventType.start, "sig=1"), (.firstQuartile, "sig=1"), (.midpoint, "sig=2"), (.complete, "sig=2")] {
                #expect(service.beacons(ad: "p1-a1", type).allSatisfy { ($0.query ?? "").contains(signature) }, "\(type)")
            }
        }
    }

    /// Finding 5c, as Harmonic's live capture has it: the second ad cut to 468 ms at the live edge.
    /// After playing it whole, only what lies inside 468 ms + 500 ms has fired; the rest waits.
    func playTheCutAd(_ service: AdService, _ daemon: DaemonProcess) async throws {
        try await daemon.waitForStatus("the metadata applied") { !$0.adBreaks.isEmpty }
        var feed = TickFeed(from: Ads.t0)
        feed.play(to: adBreakStart + 26_000)
        daemon.send(feed.lines)
        let report = try await daemon.waitForStatus("the cut ad's start done") {
            $0.state(ofAd: "p1-a2", .start) == .done && $0.state(ofAd: "p1-a1", .complete) == .done
        }
        for type in [TrackingEventType.firstQuartile, .midpoint, .thirdQuartile, .complete] {
            let event = report.events(ofAd: "p1-a2").first { $0.event == type }
            #expect(event?.heldBack == .awaitingConfirmation && event?.reportingState == .idle, "\(type)")
        }
        let watch = try await runBeaconctl(["watch", "--once", "--socket", daemon.socketPath])
        #expect(watch.stdout.contains("held back     4 waiting for confirmation"), "\(watch.stdout)")
    }

    var cutDocument: (AdService) -> MetadataDocument {
        { service in
            document([ad("p1-a1", start: adBreakStart, on: service), ad("p1-a2", start: adBreakStart + 12_000, duration: 468, on: service)],
                rangeEnd: adBreakStart + 12_468)
        }
    }

    @Test func aCutAdsQuartilesWaitAndFireWhenALaterDocumentExtendsTheAd() async throws {
        try await withPlayback(arguments: ["--metadata-interval", "0.2"], serving: { $0.serve(cutDocument($0)) }) { service, daemon in
            try await playTheCutAd(service, daemon)
            #expect(service.beacons(ad: "p1-a2", .firstQuartile).isEmpty)
            service.serve(document([ad("p1-a1", start: adBreakStart, on: service), ad("p1-a2", start: adBreakStart + 12_000, on: service)], rangeEnd: adBreakStart + 30_000))
            try await daemon.waitForStatus("the extended ad's complete done") { $0.state(ofAd: "p1-a2", .complete) == .done }
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1", "p1-a2"])
        }
    }

    @Test func aCutAdsQuartilesNeverFireOnceTheDataRangeMovesPastItsEnd() async throws {
        try await withPlayback(arguments: ["--metadata-interval", "0.2"], serving: { $0.serve(cutDocument($0)) }) { service, daemon in
            try await playTheCutAd(service, daemon)
            service.serve(document([ad("p1-a1", start: adBreakStart, on: service), ad("p1-a2", start: adBreakStart + 12_000, duration: 468, on: service)], rangeEnd: adBreakStart + 30_000))
            let report = try await daemon.waitForStatus("the range past the cut ad") { $0.dataRange?.end == adBreakStart + 30_000 }
            let held = report.events(ofAd: "p1-a2").filter { $0.heldBack == .neverConfirmed }.map(\.event)
            #expect(held == [.firstQuartile, .midpoint, .thirdQuartile, .complete])
            let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
            #expect(
                human.stdout.contains("never confirmed: the data range passed the ad's end (+0.4s) without extending the ad over it"),
                "\(human.stdout)")
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
            for type in [TrackingEventType.impression, .start] { #expect(service.beaconCount(ad: "p1-a2", type) == 1, "\(type)") }
            let cut = service.beacons.filter { ($0.query ?? "").contains("ad=p1-a2") }
            #expect(cut.count == 2, "\(cut.count) beacons of the cut ad\n\(service.beaconSummary)")
        }
    }
}
