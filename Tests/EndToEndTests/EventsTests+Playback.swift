import BeaconDomain
import BeaconRuntime
import Foundation
import Testing

/// The playback's own story in the history, and the application's entries.
extension EventsTests {
    /// play, pause, seek, buffer, rate and an ad's quartiles get their codes; `notify` adds the
    /// application's entry in area 99 and refuses a code of the daemon's; a long playback's info
    /// entries never push out a warning.
    @Test func playbackEventsAdProgressAndTheApplicationsOwnEntries() async throws {
        try await Self.withOneAdBreak { daemon in
            daemon.send("notify 123456 not the application's")
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: Ads.t0 + 500)
            for line in Self.playerEvents { feed.line(line) }
            feed.play(to: Ads.t0 + 20_000)
            feed.line("notify 399001 the viewer opened the guide")
            // Enough info entries to fill the history many times over.
            for _ in 0..<300 { feed.line("pause"); feed.line("play") }
            feed.line("notify 299042 low memory")
            let ticks = feed.tickCount
            daemon.send(feed.takeLines())
            try await daemon.waitForStatus("every line taken") { $0.counters.ticks == ticks && $0.counters.badLines == 1 }
            let json = try await runBeaconctl(["events", "--json", "--socket", daemon.socketPath])
            let entries = try json.stdout.split(separator: "\n").map { try EventEntry.decode(jsonLine: String($0)) }
            let codes = Set(entries.map(\.code))
            // The first pauses and seeks were pushed out by the 600 later ones; the warnings were not.
            #expect(codes.isSuperset(of: [306007, 306008, 299042]), "\(codes.sorted())")
            #expect(entries.contains { $0.code == 201001 && $0.details["reason"]?.contains("outside the application's area") == true }, "the refused notify")
            let low = try #require(entries.first { $0.code == 299042 })
            #expect(low.name == "applicationNotice" && low.severity == .warning && low.details == ["text": "low memory"])
            #expect(entries.filter { $0.severity == .info }.count == EventHistoryRecorder.defaultCapacity)
            #expect(entries.map(\.sequence) == entries.map(\.sequence).sorted())
            try await finish(daemon)
        }
    }

    /// Before the history fills: each kind of playback event and the ad's quartiles, in order.
    @Test func eachPlaybackEventAndQuartileHasItsCode() async throws {
        try await Self.withOneAdBreak { daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: Ads.t0 + 500)
            for line in Self.playerEvents { feed.line(line) }
            feed.play(to: Ads.t0 + 20_000)
            feed.line("notify 399001 the viewer opened the guide")
            feed.line("complete")
            let ticks = feed.tickCount
            daemon.send(feed.takeLines())
            try await daemon.waitForStatus("every tick taken") { $0.counters.ticks == ticks }
            let entries = try await eventuallyValue("the application's entry") {
                let json = try await runBeaconctl(["events", "--json", "--socket", daemon.socketPath])
                let entries = try json.stdout.split(separator: "\n").map { try EventEntry.decode(jsonLine: String($0)) }
                return entries.contains { $0.code == 399001 } ? entries : nil
            }
            let playback = entries.filter { (306007...306014).contains($0.code) || $0.code == 306106 || $0.code == 399001 }
            #expect(playback.map(\.name) == [
                "paused", "played", "seekStarted", "seekEnded", "bufferStarted", "bufferEnded", "rateChanged", "rateChanged",
                "adProgress", "adProgress", "adProgress", "applicationNotice", "playbackCompleted",
            ], "\(playback.map(\.name))")
            #expect(playback.filter { $0.code == 306106 }.map { $0.details["event"] } == ["firstQuartile", "midpoint", "thirdQuartile"])
            #expect(playback.first { $0.code == 306013 }?.details == ["rate": "2.0"])
            let human = try await runBeaconctl(["events", "--socket", daemon.socketPath])
            #expect(human.stdout.contains(#"INFO     399001  applicationNotice  text="the viewer opened the guide""#), "\(human.stdout)")
            try await finish(daemon)
        }
    }

    /// One line of each player event the history records, `rate` twice.
    static let playerEvents = ["pause", "play", "seek-start", "seek-end", "buffer-start", "buffer-end", "rate 2", "rate 1"]

    /// A daemon reading stdin for a session with one ad break of one ad, 2 s in, once it is known.
    static func withOneAdBreak(_ body: (DaemonProcess) async throws -> Void) async throws {
        try await withPlayback(arguments: ["--metadata-interval", "0.2"], adBreaks: { [Ads.adBreak(id: "p1", start: Ads.t0 + 2_000, ads: 1, on: $0)] }) {
            _, daemon in
            try await daemon.waitForStatus("the ad break known") { $0.adBreaks.count == 1 }
            try await body(daemon)
        }
    }
}
