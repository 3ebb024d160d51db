import BeaconDomain
import BeaconRuntime
import BeaconSimulator
import BeaconStorage
import Foundation
import Testing

/// What Adobe's documents give the integrator, with the real binary against the Media Collection
/// double: their configuration names, QoS on every call, the error state on invalid input, and
/// the events kept across a kill -9 (`offlineEnabled`).
extension MediaAnalyticsTests {
    /// The `[media-analytics]` table written with Adobe's names: each reaches the wire where the
    /// API takes it (`publisher`, `sdk`; `jobId` and `ovp` as custom metadata); QoS rides on
    /// every call after the player told it, the frame rate truncated.
    @Test func adobesConfigurationNamesReachTheWireAndQoSGoesWithEveryCall() async throws {
        let directory = try TemporaryDirectory()
        let collection = try await Collection.start()
        defer { Task { await collection.stop() } }
        let file = directory.file("beaconctl.toml")
        var events: [MediaCollectionEvent] = []
        try """
            [media-analytics]
            endpoint = "\(collection.endpoint)"
            trackingServer = "metrics.example.com"
            rsids = "suite-doc"
            org-id = "ORG@AdobeOrg"
            channel = "doc"
            playerName = "Living room"
            publisher = "Example Networks"
            jobId = "j2"
            ovp = "example-ovp"
            sdk = "player-sdk-3.1"
            ssl = false
            ping-interval = 2
            """.write(toFile: file, atomically: true, encoding: .utf8)
        try await withAdService { service in
            service.serve(Ads.document(Self.adBreaks(service)))
            try await withDaemon(["--stdin", "--config", file, "--metadata-interval", "0.2"]) { daemon in
                try await daemon.waitUntilListening()
                daemon.send("load \(Self.mediaURL(service)) \(Self.live)")
                try await daemon.waitForStatus("both ad breaks known") { $0.adBreaks.count == 2 }
                daemon.send(#"qos {"bitrate": 4000000, "droppedFrames": 2, "fps": 29.97, "startupTime": 850}"#)
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: Ads.t0 + 20_000)
                feed.line("pause")
                feed.line("unload")
                daemon.send(feed.takeLines())
                events = try await Self.endedSession(collection, daemon)
            }
        }
        let start = try #require(events.first)
        #expect(start.params["analytics.reportSuite"] == .string("suite-doc") && start.params["media.playerName"] == .string("Living room"))
        #expect(start.params["analytics.enableSSL"] == .boolean(false))
        #expect(start.params["media.publisher"] == .string("Example Networks"))
        #expect(start.params["media.sdkVersion"] == .string("player-sdk-3.1"))
        #expect(start.params["media.libraryVersion"]?.text?.isEmpty == false && start.params["media.libraryVersion"] != start.params["media.sdkVersion"])
        #expect(start.customMetadata["jobId"] == "j2" && start.customMetadata["ovp"] == "example-ovp")
        // Every call carries the quality the player told before playback began.
        let quality: [String: MediaCollectionValue] = [
            "media.qoe.bitrate": .integer(4_000_000), "media.qoe.droppedFrames": .integer(2), "media.qoe.framesPerSecond": .integer(29),
            "media.qoe.timeToStart": .integer(850),
        ]
        #expect(events.map(\.type).filter { $0 != .ping }.prefix(5) == [.sessionStart, .play, .adBreakStart, .adStart, .adComplete])
        for event in events { #expect(event.qoeData == quality, "\(event.type.rawValue)") }
    }

    /// A load whose content Adobe's SDKs refuse (no id; a VOD without a length): the reporter
    /// enters its error state, sends nothing of that playback, and the player hears why on its
    /// control connection; the next load leaves the state.
    @Test func anInvalidLoadEntersTheErrorStateAndThePlayerIsTold() async throws {
        try await withAdService { service in
            service.serve(Ads.document(Self.adBreaks(service)))
            let collection = try await Collection.start()
            defer { Task { await collection.stop() } }
            try await withDaemon(["--metadata-interval", "0.2"] + Self.flags(collection)) { daemon in
                try await daemon.waitUntilListening()
                let player = try await ControlClient.connect(path: daemon.socketPath)[0]
                try await player.send(line: #"load \#(Self.mediaURL(service)) {"content": {"name": "Pilot", "streamType": "vod"}}"#)
                let told = try await eventuallyValue("the error told to the player") {
                    player.poll().lines.first { $0.hasPrefix(#"{"notification""#) }
                }
                #expect(told == #"{"notification":"analyticsError","reporter":"media-analytics","reason":"the content has no id","suggestedAction":"fixAndReload"}"#)
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: Ads.t0 + 2_000)
                for line in feed.takeLines() { try await player.send(line: line) }
                let report = try await daemon.waitForStatus("the ticks taken") { $0.playhead == Ads.t0 + 2_000 }
                #expect(report.reporters.first { $0.name == .mediaAnalytics }?.state == "error state")
                #expect(collection.exchanges().isEmpty, "nothing of the invalid playback is sent")
                let history = try await runBeaconctl(["events", "--json", "--socket", daemon.socketPath])
                #expect(history.stdout.contains(#""code":106202"#) && history.stdout.contains("the content has no id"), "\(history.stdout)")
                #expect(daemon.stderrText.contains("media-analytics: the content has no id; nothing is tracked of this playback until the next load"))
                try await player.send(line: "load \(Self.mediaURL(service)) \(Self.live)")
                feed.play(to: Ads.t0 + 4_000)
                for line in feed.takeLines() { try await player.send(line: line) }
                try await eventually(timeout: .seconds(20), "a session for the valid load") { collection.sessionIDs().count == 1 }
                #expect(collection.violations() == [], "\(collection.violations())")
                daemon.terminate()
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }

    /// Adobe's `offlineEnabled`: events queued while the back end fails, then a kill -9, are sent
    /// after the restart, in order, with the times they happened; pings are not kept.
    @Test func eventsQueuedAtAKill9AreSentAfterTheRestartInOrder() async throws {
        let state = try TemporaryDirectory()
        let environment = ["STATE_DIRECTORY": state.path]
        let backlog = state.file(ReporterStateFiles.mediaAnalyticsBacklogFile)
        try await withAdService { service in
            service.serve(Ads.document(Self.adBreaks(service)))
            let collection = try await Collection.start()
            defer { Task { await collection.stop() } }
            collection.answer(503, for: 600_000, of: .all)
            let arguments = ["--stdin", "--metadata-interval", "0.2"] + Self.flags(collection)
            var made: [MediaCollectionEventType] = []
            var killedAt: Milliseconds = 0
            try await withDaemon(arguments, environment: environment) { daemon in
                try await daemon.waitUntilListening()
                daemon.send("load \(Self.mediaURL(service)) \(Self.live)")
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: Ads.t0 + 2_000)
                feed.line("pause")
                feed.wait(1_000)
                feed.line("play")
                feed.line(#"chapter-start {"index": 1, "offset": 0, "length": 60}"#)
                feed.play(to: Ads.t0 + 3_000)
                daemon.send(feed.takeLines())
                made = [.sessionStart, .play, .pauseStart, .play, .chapterStart]
                try await eventually(timeout: .seconds(20), "the backlog kept") {
                    let kept = (try? String(contentsOfFile: backlog, encoding: .utf8)) ?? ""
                    return kept.contains(#""eventType":"chapterStart""#)
                }
                killedAt = WallClock.now()
                daemon.kill()
                _ = try await daemon.waitForExit()
            }
            #expect(collection.received().isEmpty, "the back end took nothing before the kill")
            collection.answer(503, for: 0, of: .all)
            try await withDaemon(arguments, environment: environment) { daemon in
                try await eventually(timeout: .seconds(30), "the kept events at the double\n\(daemon.stderrText.suffix(3000))") {
                    collection.received().count >= made.count
                }
                #expect(daemon.stderrText.contains("media-analytics: \(made.count) events kept by the last run are sent first"), "\(daemon.stderrText.suffix(2000))")
                try await finish(daemon)
            }
            let session = try #require(collection.sessionIDs().first)
            #expect(Self.types(collection, session).prefix(made.count) == made[...])
            #expect(collection.received().allSatisfy { $0.event.type != .ping })
            let ts = collection.events(of: session).map(\.ts)
            #expect(ts == ts.sorted() && (ts.last ?? .max) <= killedAt, "the times they happened, before the kill: \(ts)")
            #expect(collection.violations() == [], "\(collection.violations())")
        }
    }
}

extension MediaAnalyticsTests {
    /// An HLS VOD with `EXT-X-PROGRAM-DATE-TIME`: ticks on program date time, yet the playhead is
    /// the content position, ads excluded, counted from the stream's start (its data range's).
    @Test func aVODOnProgramDateTimeReportsTheContentPositionWithoutTheAds() async throws {
        try await withAdService { service in
            let adBreak = Ads.adBreak(id: "p1", start: Ads.t0 + 5_000, ads: 2, on: service)
            service.serve(MetadataDocument(dataRange: DataRange(start: Ads.t0, end: Ads.t0 + 120_000), adBreaks: [adBreak]))
            try await withCollection { collection, daemon in
                daemon.send(#"load \#(Self.mediaURL(service)) {"content": {"id": "vod-pdt", "length": 96, "streamType": "vod"}}"#)
                try await daemon.waitForStatus("the ad break known") { $0.adBreaks.count == 1 }
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: Ads.t0 + 40_000)
                feed.line("unload")
                daemon.send(feed.takeLines())
                let events = try await Self.endedSession(collection, daemon)
                let ads = events.filter { [.adBreakStart, .adStart, .adComplete, .adBreakComplete].contains($0.type) }
                #expect(!ads.isEmpty && ads.allSatisfy { abs($0.playhead - 5) <= 0.25 }, "\(ads.map { "\($0.type.rawValue)@\($0.playhead)" })")
                // 40 s into the stream, after 24 s of ads: 16 s of content.
                #expect(abs((events.last?.playhead ?? 0) - 16) <= 0.25, "\(events.map { "\($0.type.rawValue)@\($0.playhead)" })")
            }
        }
    }
}
