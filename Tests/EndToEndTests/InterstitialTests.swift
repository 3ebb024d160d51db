import BeaconDomain
import BeaconRuntime
import BeaconSimulator
import Foundation
import Testing

/// HLS interstitials and MediaTailor SGAI with the real binary: the player's lines scripted (no
/// player here implements interstitials), the ad services on loopback. Every beacon of an ad
/// played as an interstitial once, at its time; none from the main playhead; none for an asset
/// never played.
@Suite(.timeLimit(.minutes(5))) struct InterstitialTests {
    static let adBreakStart = Ads.t0 + 5_000
    static let adLength: Milliseconds = 12_000

    /// Harmonic metadata describing ad break p1 (two 12 s ads) at the interstitial's date.
    static func adBreaks(_ service: AdService) -> [AdBreak] {
        [Ads.adBreak(id: "p1", start: adBreakStart, ads: 2, adDuration: adLength, userEvents: false, on: service)]
    }

    /// Main ticks to the break's date, then the interstitial: `play` says what happens inside it.
    static func feed(_ play: (inout InterstitialFeed) -> Void) -> [String] {
        var feed = InterstitialFeed(from: Ads.t0)
        feed.main.play(to: adBreakStart)
        feed.start("i1", start: adBreakStart)
        play(&feed)
        // The main stream resumes at the date (resume offset 0) and plays on through the break's window.
        feed.main.jump(to: adBreakStart)
        feed.main.play(to: adBreakStart + 40_000)
        return feed.takeLines()
    }

    /// Both assets played to their end, then a completed end.
    static func bothAssetsPlayed(_ feed: inout InterstitialFeed) {
        feed.asset(0)
        feed.play(to: adLength)
        feed.asset(1)
        feed.play(to: adLength)
        feed.end(.completed)
    }

    static func expectNoBeacon(ofAd ad: String, _ service: AdService, sourceLocation: SourceLocation = #_sourceLocation) {
        for type in Ads.playbackTypes {
            #expect(service.beaconCount(ad: ad, type) == 0, "\(type) of \(ad)", sourceLocation: sourceLocation)
        }
    }

    @Test func aHarmonicAdBreakPlayedAsAnInterstitialFiresEachEventOnceAndTheMainPlayheadNone() async throws {
        try await withPlayback(adBreaks: Self.adBreaks) { service, daemon in
            try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 1 }
            let lines = Self.feed(Self.bothAssetsPlayed)
            daemon.send(lines)
            try await daemon.waitForStatus("every line handled") { $0.counters.ticks + $0.counters.badLines == lines.count }
            try await eventually("both ads' beacons") { service.beacons.count == 2 * Ads.playbackTypes.count }
            let report = try await daemon.status()
            #expect(report.counters.badLines == 0)
            #expect(report.adInsertion == "interstitials")
            let interstitial = try #require(report.interstitial)
            #expect(interstitial.id == "i1" && interstitial.ended == .completed && interstitial.tracking == .metadata && interstitial.adBreakId == "p1")
            // The event history records the interstitial's start and end, with their codes.
            let events = try await daemon.request("events")
            #expect(events.contains(#""code":306301"#) && events.contains(#""code":306302"#) && events.contains(#""reason":"completed""#))
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1", "p1-a2"])
        }
    }

    @Test(arguments: [InterstitialEnd.Reason.skipped, .error])
    func anInterstitialSkippedOrFailedAfterItsFirstAssetFiresNothingOfTheSecond(reason: InterstitialEnd.Reason) async throws {
        try await withPlayback(adBreaks: Self.adBreaks) { service, daemon in
            try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 1 }
            let lines = Self.feed { feed in
                feed.asset(0)
                feed.play(to: Self.adLength)
                feed.end(reason)
            }
            daemon.send(lines)
            try await daemon.waitForStatus("every line handled") { $0.counters.ticks + $0.counters.badLines == lines.count }
            try await eventually("the first ad's beacons") { Ads.playbackTypes.allSatisfy { service.beaconCount(ad: "p1-a1", $0) == 1 } }
            try await finish(daemon)
            Self.expectNoBeacon(ofAd: "p1-a2", service)
        }
    }

    @Test func aSeekInsideAnAssetSkipsWhatItJumpedOver() async throws {
        try await withPlayback(adBreaks: Self.adBreaks) { service, daemon in
            try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 1 }
            let lines = Self.feed { feed in
                feed.asset(0)
                feed.play(to: 2_000)
                feed.main.line("seek-start")
                feed.main.line("seek-end")
                feed.play(to: Self.adLength)
                feed.asset(1)
                feed.play(to: Self.adLength)
                feed.end(.completed)
            }
            daemon.send(lines)
            try await eventually("the second ad's complete") { service.beaconCount(ad: "p1-a2", .complete) == 1 }
            try await finish(daemon)
            #expect(service.beaconCount(ad: "p1-a1", .impression) == 1)
            #expect(service.beaconCount(ad: "p1-a1", .firstQuartile) == 1 && service.beaconCount(ad: "p1-a1", .complete) == 1)
            expectEachPlaybackEventOnce(service, ads: ["p1-a2"])
        }
    }

    @Test func aLineNamingNoInterstitialIsRefusedWithItsReason() async throws {
        try await withPlayback(adBreaks: Self.adBreaks) { service, daemon in
            try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 1 }
            daemon.send([#"{"interstitial": "nope", "asset": 0, "position": 1.5}"#])
            let report = try await daemon.waitForStatus("the line refused") { $0.counters.badLines == 1 }
            #expect(report.counters.badLines == 1)
            try await eventually("the reason logged") { daemon.stderrLines.contains { $0.contains("no interstitial 'nope' is playing") } }
            try await finish(daemon)
            #expect(service.beacons.isEmpty)
        }
    }

    @Test func aKillNineMidInterstitialAndARestartDoubleAndLoseNothing() async throws {
        let state = try TemporaryDirectory()
        let environment = ["STATE_DIRECTORY": state.path]
        try await withAdService { service in
            service.serve(Ads.document(Self.adBreaks(service)))
            let arguments = ["--media-url", "\(service.baseURL)/live/master.m3u8?sessid=e2e", "--stdin", "--state-dir", state.path]
            var feed = InterstitialFeed(from: Ads.t0)
            try await withDaemon(arguments, environment: environment) { daemon in
                try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 1 }
                feed.main.play(to: Self.adBreakStart)
                feed.start("i1", start: Self.adBreakStart)
                feed.asset(0)
                feed.play(to: Self.adLength)
                feed.asset(1)
                feed.play(to: 4_000)
                daemon.send(feed.takeLines())
                // Killed with nothing in flight: a request on the wire at a kill is the one resend
                // the journal allows (RestartTests); here nothing may come twice.
                try await daemon.waitForStatus("the second ad's first quartile done") { report in
                    report.state(ofAd: "p1-a2", .firstQuartile) == .done && !report.deliveries.contains { $0.state == .inFlight }
                }
                daemon.kill()
                _ = try await daemon.waitForExit()
            }
            try await withDaemon(arguments, environment: environment) { daemon in
                try await daemon.waitForStatus("the session resumed") { $0.session?.sessionID == "e2e" }
                // The player says again what plays: the interstitial, and the asset now playing.
                feed.start("i1", start: Self.adBreakStart)
                feed.asset(1)
                feed.play(to: 4_250)
                feed.play(to: Self.adLength)
                feed.end(.completed)
                feed.main.jump(to: Self.adBreakStart)
                feed.main.play(to: Self.adBreakStart + 40_000)
                let lines = feed.takeLines()
                daemon.send(lines)
                try await eventually("the second ad's complete") { service.beaconCount(ad: "p1-a2", .complete) == 1 }
                try await finish(daemon)
            }
            expectEachPlaybackEventOnce(service, ads: ["p1-a1", "p1-a2"])
        }
    }

    @Test func lateMetadataForAnInterstitialAlreadyPlayedFiresItOnce() async throws {
        try await withPlayback(adBreaks: { _ in [] }) { service, daemon in
            try await daemon.waitForStatus("the first metadata applied") { $0.dataRange != nil }
            let lines = Self.feed(Self.bothAssetsPlayed)
            daemon.send(lines)
            try await daemon.waitForStatus("every line handled") { $0.counters.ticks == lines.count }
            #expect(service.beacons.isEmpty)
            service.serve(Ads.document(Self.adBreaks(service)))
            try await eventually("both ads' beacons, late") { service.beacons.count == 2 * Ads.playbackTypes.count }
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1", "p1-a2"])
        }
    }

    // MARK: MediaTailor SGAI

    typealias MediaTailor = SimulatedMediaTailorService

    /// A VOD's pre-roll (one ad) and mid-roll at 30 s (two ads), 8 s ads, as SGAI interstitials.
    static let avails = [MediaTailor.Avail(id: "pre", start: 0, adCount: 1), MediaTailor.Avail(id: "mid", start: 30_000, adCount: 2)]

    func withSGAIService(assetListTracking: Bool = true, _ body: (MediaTailor) async throws -> Void) async throws {
        var behavior = MediaTailor.Behavior()
        behavior.sgai = true
        behavior.assetListTracking = assetListTracking
        try await MediaTailorTests().withService(Self.avails, behavior: behavior, body)
    }

    /// The asset list of `avail` as the player receives it (the daemon never fetches one).
    static func assetList(_ service: MediaTailor, _ avail: String, session: String) async throws -> String {
        let url = try #require(URL(string: service.assetListURL(availID: avail, sessionID: session)))
        let response = try await RawHTTP.request("GET", url.path + "?" + (url.query ?? ""), port: try #require(url.port))
        #expect(response.status == 200)
        return response.body
    }

    /// The VOD played through: the pre-roll, 30 s of content, the mid-roll, 10 s more, each
    /// interstitial given its asset list as received; the assets' durations are the list's.
    static func playVOD(_ service: MediaTailor, _ daemon: DaemonProcess) async throws -> [String] {
        let session = try #require(try await daemon.waitForStatus("the SGAI session ready") { $0.session?.sessionID != nil }.session?.sessionID)
        var feed = InterstitialFeed(from: 0, positions: true)
        for avail in avails {
            if avail.start > 0 { feed.main.play(to: avail.start) }
            let list = try await assetList(service, avail.id, session: session)
            feed.start(avail.id, position: avail.start, assetList: list)
            for index in 0..<avail.adCount {
                feed.asset(index, duration: nil)
                feed.play(to: avail.adDuration)
            }
            feed.end(.completed)
            feed.main.jump(to: avail.start)
        }
        feed.main.play(to: 40_000)
        return feed.takeLines()
    }

    @Test func anSGAIVODFiresEveryBeaconOfItsAssetListsTrackingOnce() async throws {
        try await withSGAIService { service in
            try await withDaemon(["--media-url", service.sessionInitURL, "--sgai", "--stdin"]) { daemon in
                let lines = try await Self.playVOD(service, daemon)
                daemon.send(lines)
                try await eventually("every beacon of both avails") {
                    Self.avails.allSatisfy { avail in
                        (0..<avail.adCount).allSatisfy { index in Ads.playbackTypes.allSatisfy { service.count(avail.adID(index), $0) >= 1 } }
                    }
                }
                let report = try await daemon.status()
                #expect(report.counters.badLines == 0)
                #expect(report.session?.isSGAI == true)
                #expect(report.interstitial?.tracking == .assetList && report.interstitial?.id == "mid")
                #expect(report.timeline == .mediaTime)
                try await finish(daemon)
            }
            #expect(service.initRequests().first.map { $0.queryAsksClientReporting || $0.bodyAsksClientReporting } == true)
            for avail in Self.avails {
                for type in [TrackingEventType.breakStart, .breakEnd] {
                    #expect(service.count(avail.id, type) == 1, "\(type) of \(avail.id)")
                }
                for index in 0..<avail.adCount {
                    for type in Ads.playbackTypes {
                        #expect(service.count(avail.adID(index), type) == 1, "\(type) of \(avail.adID(index))")
                    }
                }
            }
        }
    }

    @Test func anSGAIAssetListWithoutTrackingFiresNothingAndStatusSaysWhy() async throws {
        try await withSGAIService(assetListTracking: false) { service in
            try await withDaemon(["--media-url", service.sessionInitURL, "--sgai", "--stdin"]) { daemon in
                let lines = try await Self.playVOD(service, daemon)
                daemon.send(lines)
                try await daemon.waitForStatus("every line handled") { $0.counters.ticks + $0.counters.badLines == lines.count }
                let report = try await daemon.status()
                let interstitial = try #require(report.interstitial)
                #expect(interstitial.tracking == .none && interstitial.trackingReason?.contains("no TRACKING section") == true)
                let human = try await runBeaconctl(["status", "--socket", daemon.socketPath]).stdout
                #expect(human.contains("no tracking:"), "\(human)")
                try await finish(daemon)
            }
            #expect(service.receivedBeacons().isEmpty)
        }
    }
}
