import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// The player information lines through the real binary: recorded in the event history with
/// their codes, errors counted by source, bad forms counted and refused, and the ad beacons
/// firing exactly as they do without them.
@Suite(.timeLimit(.minutes(5))) struct PlayerInformationTests {
    let adBreakStart = Ads.t0 + 2_000

    static let goodLines = [
        #"content {"id": "ep-1", "name": "Pilot", "length": -1, "streamType": "live", "show": "Dark", "tier": 2}"#,
        #"chapter-start {"index": 1, "offset": 0, "length": 600, "name": "Act 1"}"#,
        "bitrate 2500000",
        #"qos {"bitrate": 4000000, "droppedFrames": 3, "fps": 29.97, "startupTime": 850}"#,
        "state-start closedCaptioning",
        "error application DRM-LICENSE license expires soon",
        "privacy unknown",
        "state-end closedCaptioning",
        "chapter-end",
        "chapter-skip",
        "error player 3016 the decoder failed",
        "reporter list",
        "reporter disable media-analytics",
    ]

    static let badLines = [
        #"chapter-start {"index": 0, "offset": 0, "length": 600}"#,
        "bitrate -1",
        "qos {}",
        "error network E1",
        "error player",
        "state-start full screen",
        "privacy maybe",
        "reporter enable analytics",
        #"content {"length": -5}"#,
        #"{"playhead": 1, "fps": "fast"}"#,
    ]

    static let informationCodes: Set = [106001, 206001, 306001, 306002, 306003, 306004, 306005, 306006]

    @Test func informationIsRecordedWithItsCodesAndTheBeaconsFireAsBefore() async throws {
        try await withPlayback(
            arguments: ["--metrics-address", "127.0.0.1:0"],
            adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }
        ) { service, daemon in
            let port = try await MetricsTests.metricsPort(of: daemon)
            try await daemon.waitForStatus("the first metadata") { $0.dataRange != nil }
            // The information and the bad lines fall between the ad's ticks: its stretch still counts.
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 4_000)
            for line in Self.goodLines.prefix(7) { feed.line(line) }
            for line in Self.badLines { feed.line(line) }
            // A JSON tick with quality keys is a tick like another.
            feed.line(#"{"playhead": \#(feed.playhead + 100), "at": \#(feed.at + 100), "bitrate": 3000000, "fps": "25"}"#)
            feed.play(to: adBreakStart + 9_000)
            for line in Self.goodLines.dropFirst(7) { feed.line(line) }
            feed.play(to: adBreakStart + 14_000)
            daemon.send(feed.lines)

            // The refused JSON tick reads as a tick to the feed.
            let report = try await daemon.waitForStatus("every tick handled") { $0.counters.ticks == feed.tickCount - 1 }
            #expect(report.counters.badLines == Self.badLines.count)

            let json = try await runBeaconctl(["events", "--json", "--socket", daemon.socketPath])
            #expect(json.status == 0, "\(json.stderr)")
            let entries = try json.stdout.split(separator: "\n").map { try EventEntry.decode(jsonLine: String($0)) }
            // The player's information, not the ad lifecycle's entries of the same area.
            let playback = entries.filter { Self.informationCodes.contains($0.code) }
            #expect(playback.map(\.code) == [306001, 306004, 206001, 306006, 306005, 306002, 306003, 106001], "\(json.stdout)")
            #expect(playback.map(\.name) == [
                "chapterStarted", "playerStateStarted", "applicationError", "privacySet", "playerStateEnded", "chapterEnded",
                "chapterSkipped", "playerError",
            ])
            #expect(playback.map(\.severity) == [.info, .info, .warning, .info, .info, .info, .info, .error])
            #expect(playback[0].details == ["index": "1", "offset": "0", "length": "600", "name": "Act 1"])
            #expect(playback[2].details == ["source": "application", "id": "DRM-LICENSE", "message": "license expires soon"])
            #expect(playback[3].details == ["status": "unknown"])
            #expect(playback[7].details == ["source": "player", "id": "3016", "message": "the decoder failed"])
            #expect(entries.filter { $0.code == 201001 }.count == Self.badLines.count)

            let (_, metrics) = try await MetricsTests.scrape(port: port)
            #expect(metrics.value("beaconctl_playback_errors_total", ["source": "player"]) == 1)
            #expect(metrics.value("beaconctl_playback_errors_total", ["source": "application"]) == 1)

            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
            #expect(service.beacons.count == Ads.playbackTypes.count, "\(service.beaconSummary)")
        }
    }
}
