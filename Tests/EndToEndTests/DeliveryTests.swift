import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Testing

/// Requesting signaling URLs: several per event, failures, refusals, quiet mode.
@Suite(.timeLimit(.minutes(5))) struct DeliveryTests {
    let adBreakStart = Ads.t0 + 2_000

    @Test func everySignalingURLOfAnEventIsRequested() async throws {
        try await withPlayback(adBreaks: { service in
            let ad = StandardAd.make(id: "multi", start: adBreakStart, duration: 8_000, userTypes: []) { type in
                type == .impression
                    ? (1...3).map { service.beaconURL(ad: "multi", type, extra: "&n=\($0)") }
                    : [service.beaconURL(ad: "multi", type)]
            }
            return [AdBreak(id: "p1", startTime: adBreakStart, duration: 8_000, ads: [ad])]
        }) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 10_000)
            daemon.send(feed.lines)

            try await daemon.waitForStatus("the impression done") { $0.state(ofAd: "multi", .impression) == .done }
            try await finish(daemon)
            let impressions = service.beacons(ad: "multi", .impression)
            #expect(impressions.count == 3)
            for n in 1...3 {
                #expect(impressions.filter { $0.query?.hasSuffix("&n=\(n)") == true }.count == 1, "URL \(n)")
            }
        }
    }

    @Test func aFailingOrRefusedURLMakesItsEventFailed() async throws {
        try await withPlayback(
            configure: { $0.answerBeacons(containing: "cn=midpoint", with: .status(404)) },
            adBreaks: { service in
                let ad = StandardAd.make(id: "bad", start: adBreakStart, duration: 8_000, userTypes: []) { type in
                    type == .thirdQuartile ? ["file:///etc/passwd"] : [service.beaconURL(ad: "bad", type)]
                }
                return [AdBreak(id: "p1", startTime: adBreakStart, duration: 8_000, ads: [ad])]
            }
        ) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 10_000)
            daemon.send(feed.lines)

            let report = try await daemon.waitForStatus("every playback event delivered") { report in
                Ads.playbackTypes.allSatisfy { [.done, .failed].contains(report.state(ofAd: "bad", $0)) }
            }
            #expect(report.state(ofAd: "bad", .midpoint) == .failed)
            #expect(report.state(ofAd: "bad", .thirdQuartile) == .failed)
            for type in [TrackingEventType.impression, .start, .firstQuartile, .complete] {
                #expect(report.state(ofAd: "bad", type) == .done, "\(type)")
            }
            #expect(report.counters.beaconsFailed >= 1)
            #expect(report.counters.beaconsSent == 4)
            try await finish(daemon)

            #expect(service.beaconCount(ad: "bad", .midpoint) == 1)
            #expect(service.beaconCount(ad: "bad", .thirdQuartile) == 0)
            let refusal = daemon.stderrLines.filter { $0.contains("BEACON refused") }
            #expect(refusal.count == 1, "\(daemon.stderrText.suffix(3000))")
            #expect(refusal.first?.contains("file:///etc/passwd") == true)
            #expect(refusal.first?.contains("event=thirdQuartile") == true)
            #expect(daemon.stderrLines.contains { $0.contains("BEACON failed") && $0.contains("event=midpoint") && $0.contains("status=404") })
        }
    }

    @Test func quietComputesEverythingAndSendsNothing() async throws {
        try await withPlayback(arguments: ["--quiet"], adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, adDuration: 8_000, on: $0)] }) {
            service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 10_000)
            daemon.send(feed.lines)

            let report = try await daemon.waitForStatus("every playback event done") { report in
                Ads.playbackTypes.allSatisfy { report.state(ofAd: "p1-a1", $0) == .done }
            }
            #expect(report.counters.beaconsSent == 0)
            #expect(report.counters.beaconsFailed == 0)
            try await finish(daemon)
            #expect(service.beacons.isEmpty, "\(service.beaconSummary)")
            let quiet = daemon.stderrLines.filter { $0.contains("not sent (quiet)") }
            #expect(quiet.count == Ads.playbackTypes.count, "\(daemon.stderrText.suffix(3000))")
        }
    }
}
