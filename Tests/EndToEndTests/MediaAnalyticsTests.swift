import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Testing

/// The media-analytics reporter with the real binary against the Media Collection double, which
/// checks every request as Adobe's back end does and each session's order; the ad beacons of the
/// same playback go to the test ad service as before.
@Suite(.timeLimit(.minutes(5))) struct MediaAnalyticsTests {
    typealias Collection = SimulatedMediaCollectionService

    static func flags(_ collection: Collection, pingInterval: String = "2") -> [String] {
        [
            "--media-analytics-endpoint", collection.endpoint, "--media-analytics-tracking-server", "metrics.example.com",
            "--media-analytics-report-suite", "suite-e2e", "--media-analytics-org-id", "ORG@AdobeOrg", "--media-analytics-channel", "e2e",
            "--media-analytics-ping-interval", pingInterval,
        ]
    }

    /// Runs `body` with the double and a daemon reading stdin, reporting to it.
    func withCollection(arguments: [String] = [], _ body: (Collection, DaemonProcess) async throws -> Void) async throws {
        let collection = try await Collection.start()
        do {
            try await withDaemon(["--stdin", "--metadata-interval", "0.2"] + Self.flags(collection) + arguments) { daemon in
                try await daemon.waitUntilListening()
                try await body(collection, daemon)
            }
        } catch {
            await collection.stop()
            throw error
        }
        await collection.stop()
    }

    static func mediaURL(_ service: AdService) -> String { "\(service.baseURL)/live/master.m3u8?sessid=e2e" }

    static let live = #"{"content": {"id": "channel-1", "name": "News", "streamType": "live"}}"#

    /// Two ad breaks of two 12 s ads on program date time: p1 5 s into the feed, p2 60 s into it.
    static func adBreaks(_ service: AdService) -> [AdBreak] {
        [Ads.adBreak(id: "p1", start: Ads.t0 + 5_000, ads: 2, on: service), Ads.adBreak(id: "p2", start: Ads.t0 + 60_000, ads: 2, on: service)]
    }

    /// Runs `body` with the live service of ``adBreaks(_:)`` and the daemon loaded with it and reporting to the double.
    func withLive(arguments: [String] = [], _ body: (Collection, AdService, DaemonProcess) async throws -> Void) async throws {
        try await withAdService { service in
            service.serve(Ads.document(Self.adBreaks(service)))
            try await withCollection(arguments: arguments) { collection, daemon in
                daemon.send("load \(Self.mediaURL(service)) \(Self.live)")
                try await daemon.waitForStatus("both ad breaks known") { $0.adBreaks.count == 2 }
                try await body(collection, service, daemon)
            }
        }
    }

    /// The event types of `sessionID` without the pings, which depend on how fast the lines go in.
    static func types(_ collection: Collection, _ sessionID: String) -> [MediaCollectionEventType] {
        collection.events(of: sessionID).map(\.type).filter { $0 != .ping }
    }

    /// VOD on media time (MediaTailor): the playhead is the content position, ads excluded.
    @Test func aVODSessionWithAStitchedMidRollPauseBufferingAChapterABitrateChangeAndCompletion() async throws {
        let avail = SimulatedMediaTailorService.Avail(id: "m1", start: 10_000, adCount: 2, adDuration: 12_000)
        let service = try await SimulatedMediaTailorService.start(avails: [avail])
        defer { Task { await service.stop() } }
        try await withCollection { collection, daemon in
            let content = #"{"content": {"id": "vod-1", "name": "Pilot", "length": 120, "streamType": "vod", "show": "Show", "tier": "gold"}}"#
            daemon.send("load \(service.sessionInitURL) \(content)")
            try await daemon.waitForStatus("the mid-roll known") { $0.adBreaks.count == 1 }
            daemon.send(["play", #"chapter-start {"index": 1, "offset": 0, "length": 60, "name": "Opening"}"#])
            var feed = TickFeed(from: 0, positions: true)
            feed.play(to: 4_000)
            feed.line("bitrate 5000000")
            feed.play(to: 6_000)
            feed.line("pause")
            feed.wait(2_000)
            feed.line("play")
            feed.line("buffer-start")
            feed.line("buffer-end")
            feed.play(to: 36_000)
            feed.line("chapter-end")
            feed.line("complete")
            daemon.send(feed.takeLines())
            try await eventually(timeout: .seconds(20), "sessionComplete at the double") {
                collection.received().contains { $0.event.type == .sessionComplete }
            }
            try await finish(daemon)
            #expect(collection.violations() == [], "\(collection.violations())")
            #expect(collection.sessionIDs().count == 1)
            let session = try #require(collection.sessionIDs().first)
            #expect(Self.types(collection, session) == [
                .sessionStart, .play, .chapterStart, .bitrateChange, .pauseStart, .play, .bufferStart, .play,
                .adBreakStart, .adStart, .adComplete, .adStart, .adComplete, .adBreakComplete, .play, .chapterComplete, .sessionComplete,
            ])
            let events = collection.events(of: session)
            let start = try #require(events.first)
            let expected: [String: MediaCollectionValue] = [
                "media.id": .string("vod-1"), "media.name": .string("Pilot"), "media.contentType": .string("vod"), "media.show": .string("Show"),
                "analytics.trackingServer": .string("metrics.example.com"), "analytics.reportSuite": .string("suite-e2e"),
                "visitor.marketingCloudOrgId": .string("ORG@AdobeOrg"), "media.channel": .string("e2e"), "media.playerName": .string("beaconctl"),
            ]
            for (key, value) in expected { #expect(start.params[key] == value, "\(key)") }
            #expect(start.params["media.length"]?.number == 120)
            #expect(start.params["appInstallationId"]?.text?.isEmpty == false)
            #expect(start.params["media.sdkVersion"]?.text?.isEmpty == false)
            #expect(start.customMetadata == ["tier": "gold"])
            let adBreak = try #require(events.first { $0.type == .adBreakStart })
            #expect(adBreak.params["media.ad.podIndex"] == .integer(1))
            #expect(adBreak.params["media.ad.podSecond"]?.number == 10)
            let ads = events.filter { $0.type == .adStart }
            #expect(ads.map { $0.params["media.ad.id"] } == [.string("m1-ad1"), .string("m1-ad2")])
            #expect(ads.map { $0.params["media.ad.podPosition"] } == [.integer(1), .integer(2)])
            #expect(ads.allSatisfy { $0.params["media.ad.length"]?.number == 12 })
            #expect(events.first { $0.type == .bitrateChange }?.qoeData["media.qoe.bitrate"] == .integer(5_000_000))
            // VOD: the content position, ads excluded: 10 s at the mid-roll (the break is told with the
            // last tick before it, 250 ms earlier), 12 s once it is over.
            #expect(events.filter { [.adBreakStart, .adStart, .adComplete, .adBreakComplete].contains($0.type) }.allSatisfy { abs($0.playhead - 10) <= 0.25 },
                "\(events.map { "\($0.type.rawValue)@\($0.playhead)" })")
            #expect(events.last?.playhead == 12)
            // The ad beacons as before: each playback event of each ad once.
            for ad in ["m1-ad1", "m1-ad2"] {
                for type in StandardAd.playbackTypes { #expect(service.count(ad, type) == 1, "\(type) of \(ad)") }
            }
        }
    }

    /// Waits for the playback's `sessionEnd` at the double and finishes the daemon; returns the
    /// events of the first session, the double having found none at fault.
    static func endedSession(
        _ collection: Collection, _ daemon: DaemonProcess, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [MediaCollectionEvent] {
        try await eventually(timeout: .seconds(20), "sessionEnd at the double") { collection.received().contains { $0.event.type == .sessionEnd } }
        try await finish(daemon, sourceLocation: sourceLocation)
        #expect(collection.violations() == [], "\(collection.violations())", sourceLocation: sourceLocation)
        return collection.events(of: try #require(collection.sessionIDs().first, sourceLocation: sourceLocation))
    }

    /// Plays the first 2 s of the live feed and waits for the session they start.
    static func started(_ collection: Collection, _ daemon: DaemonProcess) async throws -> TickFeed {
        var feed = TickFeed(from: Ads.t0)
        feed.play(to: Ads.t0 + 2_000)
        daemon.send(feed.takeLines())
        try await eventually("the session started") { collection.sessionIDs().count == 1 }
        return feed
    }

    /// Live: two ad breaks, the first played through, a seek out of the second's first ad (adSkip),
    /// unload; the playhead is the second of the UTC day.
    @Test func aLiveSessionWithTwoAdBreaksAndASeekOutOfAnAd() async throws {
        try await withLive { collection, service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: Ads.t0 + 62_000)
            feed.line("seek-start")
            feed.jump(to: Ads.t0 + 120_000)
            feed.line("seek-end")
            feed.play(to: Ads.t0 + 122_000)
            feed.line("unload")
            daemon.send(feed.takeLines())
            let events = try await Self.endedSession(collection, daemon)
            let told = events.filter { [.adBreakStart, .adStart, .adComplete, .adSkip, .adBreakComplete].contains($0.type) }
                .map { "\($0.type.rawValue) \($0.params["media.ad.id"]?.text ?? $0.params["media.ad.podFriendlyName"]?.text ?? "")" }
            #expect(told == [
                "adBreakStart p1", "adStart p1-a1", "adComplete ", "adStart p1-a2", "adComplete ", "adBreakComplete ",
                "adBreakStart p2", "adStart p2-a1", "adSkip ", "adBreakComplete ",
            ], "\(events.map(\.type))")
            // Playback resumed after the seek out of the ad: `play` follows the break's end.
            let afterBreak = events.filter { $0.type != .ping }.split { $0.type == .adBreakComplete }.last?.first?.type
            #expect(afterBreak == .play, "\(events.map(\.type))")
            #expect(events.first?.params["media.contentType"] == .string("live"))
            #expect(events.first?.params["media.length"]?.number == 86_400)
            // 2023-01-31T03:25:34.076Z is second 12 334.076 of its day.
            let p1Start = try #require(events.first { $0.type == .adBreakStart })
            #expect(abs(p1Start.playhead - 12_339.076) <= 0.25, "\(p1Start.playhead)")
            #expect(events.last?.type == .sessionEnd)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1", "p1-a2"])
            #expect(service.beaconCount(ad: "p2-a1", .complete) == 0)
        }
    }

    /// A `load` that replaces a playing playback ends its media-analytics session and opens the
    /// next one: the replaced playback's daemon session ends after the new load, and is not its.
    @Test func aLoadReplacingAPlayingPlaybackEndsItsSessionAndOpensTheNext() async throws {
        try await withLive { collection, service, daemon in
            var feed = try await Self.started(collection, daemon)
            daemon.send("load \(Self.mediaURL(service)) \(Self.live)")
            feed.play(to: Ads.t0 + 4_000)
            daemon.send(feed.takeLines())
            try await eventually(timeout: .seconds(20), "the second playback's session and play") {
                collection.sessionIDs().count == 2 && Self.types(collection, collection.sessionIDs()[1]).contains(.play)
            }
            #expect(Self.types(collection, collection.sessionIDs()[0]).last == .sessionEnd)
            try await finish(daemon)
            #expect(collection.violations() == [], "\(collection.violations())")
        }
    }

    /// A 404 to an event: the session is gone, a new one starts with media.resume and the current state.
    @Test func aSessionGoneStartsANewOneWithResume() async throws {
        try await withLive { collection, _, daemon in
            var feed = try await Self.started(collection, daemon)
            collection.answer(404, toNext: 1)
            feed.line("pause")
            feed.wait(1_000)
            feed.line("play")
            feed.play(to: Ads.t0 + 3_000)
            daemon.send(feed.takeLines())
            try await eventually(timeout: .seconds(20), "a second session") { collection.sessionIDs().count == 2 }
            try await eventually("the new session's play") { Self.types(collection, collection.sessionIDs()[1]).contains(.play) }
            let resumed = collection.events(of: collection.sessionIDs()[1])
            #expect(resumed.first?.params["media.resume"] == .boolean(true))
            #expect(collection.refusals().map(\.status) == [404], "\(collection.refusals())")
            try await finish(daemon)
            #expect(collection.violations() == [], "\(collection.violations())")
        }
    }

    /// `privacy optout` ends the session with sessionEnd and sends nothing more; the ad beacons go on.
    @Test func optOutEndsTheSessionAndTheBeaconsGoOn() async throws {
        try await withLive { collection, service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: Ads.t0 + 2_000)
            feed.line("privacy optout")
            feed.play(to: Ads.t0 + 30_000)
            daemon.send(feed.takeLines())
            try await eventually(timeout: .seconds(20), "sessionEnd on opt-out") { collection.received().contains { $0.event.type == .sessionEnd } }
            try await daemon.waitForStatus("the playhead past p1") { $0.playhead == Ads.t0 + 30_000 }
            try await finish(daemon)
            #expect(Self.types(collection, try #require(collection.sessionIDs().first)).last == .sessionEnd)
            #expect(collection.sessionIDs().count == 1)
            #expect(!collection.received().contains { $0.event.type == .adBreakStart })
            #expect(collection.violations() == [], "\(collection.violations())")
            expectEachPlaybackEventOnce(service, ads: ["p1-a1", "p1-a2"])
        }
    }

    /// `reporter disable media-analytics` ends its session and stops its requests, `enable` starts a
    /// new session when playback goes on; the beacons unchanged.
    @Test func disableAndEnableTheReporter() async throws {
        try await withLive { collection, service, daemon in
            var feed = try await Self.started(collection, daemon)
            let disabled = try await daemon.request("reporter disable media-analytics")
            #expect(!disabled.contains("error"), "\(disabled)")
            try await eventually("sessionEnd on disable") { collection.received().contains { $0.event.type == .sessionEnd } }
            let before = collection.exchanges().count
            feed.play(to: Ads.t0 + 30_000)
            daemon.send(feed.takeLines())
            try await daemon.waitForStatus("the playhead past p1") { $0.playhead == Ads.t0 + 30_000 }
            try await Task.sleep(for: .milliseconds(500))
            #expect(collection.exchanges().count == before, "\(collection.exchanges().dropFirst(before))")
            #expect(!collection.received().contains { $0.event.type == .adBreakStart })
            _ = try await daemon.request("reporter enable media-analytics")
            feed.line("pause")
            feed.wait(1_000)
            feed.line("play")
            feed.play(to: Ads.t0 + 32_000)
            daemon.send(feed.takeLines())
            try await eventually(timeout: .seconds(10), "a new session once enabled") { collection.sessionIDs().count == 2 }
            try await finish(daemon)
            #expect(collection.violations() == [], "\(collection.violations())")
            expectEachPlaybackEventOnce(service, ads: ["p1-a1", "p1-a2"])
        }
    }

    /// `--quiet` computes everything and sends nothing: the double hears nothing, the sink no beacon.
    @Test func quietSendsNothing() async throws {
        try await withLive(arguments: ["--quiet"]) { collection, service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: Ads.t0 + 30_000)
            feed.line("unload")
            daemon.send(feed.takeLines())
            try await daemon.waitForStatus("idle after unload") { $0.state == "idle" }
            try await finish(daemon)
            #expect(collection.exchanges().isEmpty, "\(collection.exchanges())")
            #expect(service.beacons.isEmpty)
        }
    }

    /// A 20 s outage (500 to everything): every event but the pings arrives afterwards, in order,
    /// with the ts it had when it happened.
    @Test func aTwentySecondOutageLosesNoEventButPings() async throws {
        try await withLive { collection, _, daemon in
            var feed = try await Self.started(collection, daemon)
            collection.answer(500, for: 20_000, of: .all)
            let outageEnd = WallClock.now() + 20_000
            feed.line("pause")
            feed.wait(1_000)
            feed.line("play")
            feed.line(#"chapter-start {"index": 1, "offset": 0, "length": 60}"#)
            feed.play(to: Ads.t0 + 20_000)
            feed.line("bitrate 3000000")
            feed.line("chapter-end")
            daemon.send(feed.takeLines())
            try await eventually(timeout: .seconds(60), "every event after the outage") {
                collection.received().contains { $0.event.type == .chapterComplete }
            }
            let session = try #require(collection.sessionIDs().first)
            let types = Self.types(collection, session)
            #expect(types == [
                .sessionStart, .play, .pauseStart, .play, .chapterStart, .adBreakStart, .adStart, .adComplete, .adStart, .bitrateChange,
                .chapterComplete,
            ], "\(types)")
            let late = collection.received().filter { $0.sessionID == session && $0.event.type == .pauseStart }
            #expect(late.allSatisfy { $0.receivedAt >= outageEnd - 100 && $0.event.ts < outageEnd - 15_000 }, "\(late)")
            #expect(collection.refusals().allSatisfy { $0.status == 500 })
            #expect(collection.violations() == [], "\(collection.violations())")
            try await finish(daemon)
        }
    }
}
