import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// `beaconctl status`, human and JSON, with and without a daemon.
@Suite(.timeLimit(.minutes(5))) struct StatusTests {
    let adBreakStart = Ads.t0 + 2_000

    @Test func withoutADaemonStatusSaysSoAndFails() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try await runBeaconctl(["status", "--socket", directory.file("none.sock")])
        #expect(result.status != 0)
        #expect(result.stderr.contains("no daemon is listening"), "\(result.stderr)")
        #expect(result.stderr.contains(directory.file("none.sock")))
    }

    @Test func humanAndJSONViews() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) { service, daemon in
            // Up to 1 s past the midpoint of the 12 s ad: the third quartile is still to come.
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 7_000)
            daemon.send(feed.lines)
            try await daemon.waitForStatus("the midpoint done") { $0.state(ofAd: "p1-a1", .midpoint) == .done }

            let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
            #expect(human.status == 0, "\(human.stderr)")
            let lines = human.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("state") && $0.contains("playing") }, "\(human.stdout)")
            #expect(human.stdout.contains("\(service.baseURL)/live/master.m3u8?sessid=e2e"))
            #expect(human.stdout.contains("\(service.baseURL)/live/metadata?sessid=e2e"))
            #expect(human.stdout.contains("ad break p1"))
            #expect(human.stdout.contains("ad p1-a1"))
            func eventLine(_ type: TrackingEventType) -> String? {
                lines.first { $0.split(separator: " ").contains(Substring(type.rawValue)) }
            }
            for type in [TrackingEventType.impression, .start, .firstQuartile, .midpoint] {
                #expect(eventLine(type)?.contains("done") == true, "\(type): \(eventLine(type) ?? "missing")")
            }
            for type in [TrackingEventType.thirdQuartile, .complete, .pause, .mute] {
                #expect(eventLine(type)?.contains("idle") == true, "\(type): \(eventLine(type) ?? "missing")")
            }

            let json = try await runBeaconctl(["status", "--json", "--socket", daemon.socketPath])
            #expect(json.status == 0, "\(json.stderr)")
            let text = json.stdout.trimmingCharacters(in: .newlines)
            #expect(!text.contains("\n"), "one line")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(
                Set(object.keys)
                    == [
                        "apiLevel", "version", "state", "session", "playhead", "lastTickAt", "lastMetadataAt", "dataRange", "adBreaks", "counters",
                        "lastError", "metadataFailures", "nextMetadataAt", "initFailures", "nextInitAt", "deliveries", "journal",
                        "timeline", "contentPosition", "adPlacement", "reporters", "audit", "adInsertion", "interstitial",
                    ])
            #expect(object["timeline"] as? String == "programDateTime")
            #expect(object["contentPosition"] is NSNull)
            #expect(object["apiLevel"] as? Int == 1)
            #expect(object["state"] as? String == "playing")
            let session = try #require(object["session"] as? [String: Any])
            #expect(Set(session.keys) == ["mediaUrl", "manifestUrl", "trackingUrl", "sessionId", "dialect"])
            #expect(session["dialect"] as? String == "harmonic")
            let counters = try #require(object["counters"] as? [String: Any])
            #expect(
                Set(counters.keys) == [
                    "ticks", "badLines", "beaconsSent", "beaconsFailed", "beaconsRetried", "beaconsResent", "metadataFetches", "metadataErrors",
                    "journalErrors", "logLinesDropped",
                ])
            #expect(object["lastError"] is NSNull)
            #expect(object["metadataFailures"] as? Int == 0)
            #expect(object["initFailures"] as? Int == 0)
            #expect(object["nextInitAt"] is NSNull)
            let report = try StatusReport.decode(jsonLine: text)
            #expect(report.playhead == adBreakStart + 7_000)
            #expect(report.lastTickAt != nil, "a tick arrived")
            #expect(report.lastMetadataAt != nil, "metadata was applied")
            #expect(report.counters.ticks == feed.tickCount)
            let event = try #require(report.adBreaks.first?.ads.first?.trackingEvents.first)
            #expect(event.event == .impression)
            #expect(event.signalingURLs == [service.beaconURL(ad: "p1-a1", .impression)])
            try await finish(daemon)
        }
    }

    /// A long live window makes a status of megabytes: the CLI reads it whole, as `watch` does.
    @Test func aStatusFarLongerThanAnInputLineIsShownWhole() async throws {
        let adBreaks: (AdService) -> [AdBreak] = { service in
            (0..<60).map { Ads.adBreak(id: "p\($0)", start: Ads.t0 + 60_000 * Milliseconds($0), ads: 4, on: service) }
        }
        try await withPlayback(adBreaks: adBreaks) { _, daemon in
            try await daemon.waitForStatus("60 ad breaks known") { $0.adBreaks.count == 60 }
            let json = try await runBeaconctl(["status", "--json", "--socket", daemon.socketPath])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout.utf8.count > LineFramer.defaultMaxLineBytes, "\(json.stdout.utf8.count) bytes")
            #expect(try StatusReport.decode(jsonLine: json.stdout.trimmingCharacters(in: .newlines)).adBreaks.count == 60)
            let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
            #expect(human.status == 0, "\(human.stderr)")
            #expect(human.stdout.contains("ad break p59"))
            let watch = try await runBeaconctl(["watch", "--once", "--socket", daemon.socketPath])
            #expect(watch.status == 0, "\(watch.stderr)")
            try await finish(daemon)
        }
    }
}
