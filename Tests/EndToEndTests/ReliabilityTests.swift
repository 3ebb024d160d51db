import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Testing

/// Nothing lost, nothing doubled: the real binary against a beacon sink that fails in the ways ad
/// servers and networks do, and across kills and restarts. Each test counts what reached the sink,
/// for a Harmonic session and for a MediaTailor one serving the same ads.
@Suite(.timeLimit(.minutes(5))) struct ReliabilityTests {
    let adBreakStart = Ads.t0 + 2_000
    static let adDuration: Milliseconds = 8_000

    /// An ad break of `count` ads of 8 s from `adBreakStart`, named `<id>-a1`..., every playback event signaling `sink`.
    func adBreak(_ id: String, ads count: Int, on sink: BeaconSink) -> AdBreak {
        let ads = (0..<count).map { index in
            let adID = "\(id)-a\(index + 1)"
            return StandardAd.make(
                id: adID, start: adBreakStart + Milliseconds(index) * Self.adDuration, duration: Self.adDuration, userTypes: []
            ) { [sink.url(ad: adID, $0)] }
        }
        return AdBreak(id: id, startTime: adBreakStart, duration: Milliseconds(count) * Self.adDuration, ads: ads)
    }

    /// A Harmonic session's media URL, for the scenarios that run against that dialect only.
    func mediaURL(_ service: AdService) -> String { ServedDialect.harmonic.mediaURL(service) }

    /// Expects every playback event of every ad of `adBreak` to have reached the sink exactly `times` times.
    func expectEachBeacon(
        of adBreak: AdBreak, on sink: BeaconSink, times: Int = 1, except: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for ad in adBreak.ads {
            for type in Ads.playbackTypes where !except.contains("\(ad.id)/\(type)") {
                #expect(sink.count(ad: ad.id, type) == times, "\(ad.id) \(type)\n\(sink.summary)", sourceLocation: sourceLocation)
            }
        }
    }

    /// An outage of the real binary, for a Harmonic session (the 503 scenario below takes both
    /// dialects to the same delivery). The sink stays down until a delivery has failed 4 times, so
    /// the host is seen down and only its oldest delivery is tried: backoffs of 1 + 2 + 4 s at most.
    @Test func anOutageLosesNothingDoublesNothingAndDeliversOldestFirst() async throws {
        let dialect = ServedDialect.harmonic
        try await withBeaconSink { sink in
            try await withAdService { service in
                let adBreak = adBreak("o", ads: 3, on: sink)
                try dialect.serve([adBreak], on: service)
                await sink.down()
                try await withDaemon(["--media-url", dialect.mediaURL(service), "--stdin"]) { daemon in
                    try await daemon.waitUntilListening()
                    // Each ad is played once the previous one's beacons are due, so their beacons fall due in
                    // order. Playing an ad to its end also fires the next one's impression and start.
                    var feed = TickFeed(from: Ads.t0)
                    for index in 1...3 {
                        feed.play(to: adBreakStart + Milliseconds(index) * Self.adDuration + 500)
                        daemon.send(feed.takeLines())
                        let due = min(6 * index + 2, 18)
                        try await daemon.waitForStatus("the \(due) beacons of ad \(index) and before due") { $0.deliveries.count == due }
                    }
                    try await daemon.waitForStatus("18 deliveries waiting for a retry") { report in
                        report.deliveries.count == 18 && report.deliveries.allSatisfy { $0.state != .delivered } && report.counters.beaconsRetried > 0
                    }
                    try await daemon.waitForStatus(timeout: .seconds(60), "the oldest delivery tried 4 times") { report in
                        report.deliveries.contains { $0.attempts >= 4 }
                    }
                    #expect(sink.received.isEmpty)
                    try await sink.up()
                    let report = try await daemon.waitForStatus(timeout: .seconds(60), "every delivery delivered after the outage") { report in
                        report.deliveries.count == 18 && report.deliveries.allSatisfy { $0.state == .delivered }
                    }
                    expectEachBeacon(of: adBreak, on: sink)
                    #expect(sink.received.count == 18, "\(sink.summary)")
                    #expect(report.counters.beaconsSent == 18)
                    #expect(report.session?.dialect == dialect.dialect)
                    #expect(report.counters.beaconsFailed == 0)
                    // Oldest first: the ads fell due one after the other, so each ad's beacons arrive, on average,
                    // after the previous ad's. Within an ad they may swap: a recovering host takes 2, 4, 8...
                    // requests at once, over several connections.
                    let arrivals = sink.received.map(\.uri)
                    let meanArrival = adBreak.ads.map { ad in
                        let places = arrivals.indices.filter { arrivals[$0].contains("ad=\(ad.id)&") }
                        return Double(places.reduce(0, +)) / Double(max(places.count, 1))
                    }
                    #expect(meanArrival == meanArrival.sorted(), "\(meanArrival)\n\(arrivals.joined(separator: "\n"))")
                    #expect(arrivals.first?.contains("ad=o-a1&") == true, "\(arrivals.joined(separator: "\n"))")
                    try await finish(daemon)
                }
            }
        }
    }

    @Test(arguments: ServedDialect.allCases)
    func a503IsRetriedWithBackoffUntilItGoesThroughAndA404IsNotRetried(_ dialect: ServedDialect) async throws {
        try await withBeaconSink { sink in
            sink.answer { uri, count in
                if uri.contains("cn=midpoint") { return .status(404) }
                if uri.contains("cn=start") { return .status(count <= 2 ? 503 : 204) }
                return .status(204)
            }
            try await withAdService { service in
                let adBreak = adBreak("r", ads: 1, on: sink)
                try dialect.serve([adBreak], on: service)
                try await withDaemon(["--media-url", dialect.mediaURL(service), "--stdin", "--metrics-address", "127.0.0.1:0"]) { daemon in
                    try await daemon.waitUntilListening()
                    var feed = TickFeed(from: Ads.t0)
                    feed.play(to: adBreakStart + Self.adDuration + 500)
                    daemon.send(feed.lines)
                    let report = try await daemon.waitForStatus(timeout: .seconds(30), "start delivered after two 503s") {
                        $0.state(ofAd: "r-a1", .start) == .done
                    }
                    let start = try #require(report.deliveries.first { $0.event == .start })
                    #expect(start.attempts == 3)
                    #expect(start.lastStatus == 204)
                    #expect(report.session?.dialect == dialect.dialect)
                    #expect(sink.count(ad: "r-a1", .start) == 3)
                    #expect(report.counters.beaconsRetried >= 2)
                    let starts = sink.received.filter { $0.uri.contains("cn=start") }.map(\.at)
                    // Backoff: the retries did not follow at once (the first waits up to 1 s, the second up to 2 s).
                    #expect(starts[2] - starts[0] > .milliseconds(1))
                    #expect(daemon.stderrLines.contains { $0.contains("BEACON retrying") && $0.contains("event=start") && $0.contains("status=503") })

                    #expect(report.state(ofAd: "r-a1", .midpoint) == .failed)
                    let midpoint = try #require(report.deliveries.first { $0.event == .midpoint })
                    #expect(midpoint.attempts == 1)
                    #expect(midpoint.lastStatus == 404)
                    try await Task.sleep(for: .seconds(3))
                    #expect(sink.count(ad: "r-a1", .midpoint) == 1, "a 404 is never retried")
                    expectEachBeacon(of: adBreak, on: sink, except: ["r-a1/start", "r-a1/midpoint"])

                    let (_, metrics) = try await MetricsTests.scrape(port: try await MetricsTests.metricsPort(of: daemon))
                    let beacons = "beaconctl_beacons_total"
                    #expect(metrics.value(beacons, ["event": "start", "result": "sent"]) == 1, "\(metrics.describe(beacons))")
                    #expect(metrics.value(beacons, ["event": "midpoint", "result": "failed"]) == 1, "\(metrics.describe(beacons))")
                    #expect(metrics.sum(beacons, matching: ["result": "sent"]) == 5, "\(metrics.describe(beacons))")
                    #expect(metrics.sum("beaconctl_beacon_retries_total") >= 2, "\(metrics.describe("beaconctl_beacon_retries_total"))")
                    try await finish(daemon)
                }
            }
        }
    }
}
