import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Testing

/// `--metrics-address`: the real binary scraped over real HTTP after a scripted ad break.
@Suite(.timeLimit(.minutes(5))) struct MetricsTests {
    let adBreakStart = Ads.t0 + 2_000

    /// The port of the metrics URL the daemon logged, for the loopback address.
    static func metricsPort(of daemon: DaemonProcess) async throws -> Int {
        try await eventuallyValue("the metrics URL in the log\n\(daemon.stderrText.suffix(2000))") {
            port(after: "serving metrics url=http://127.0.0.1:", in: daemon.stderrLines)
        }
    }

    /// The number right after `marker` in the first of `lines` that holds it.
    static func port(after marker: String, in lines: [String]) -> Int? {
        lines.lazy.compactMap { line -> Int? in
            guard let mark = line.range(of: marker) else { return nil }
            return Int(line[mark.upperBound...].prefix { $0.isNumber })
        }.first
    }

    static func scrape(port: Int) async throws -> (RawHTTP.Response, Exposition) {
        let response = try await RawHTTP.request("GET", "/metrics", port: port)
        return (response, try Exposition(parsing: response.body))
    }

    /// An ad whose midpoint URL answers 404 (not retried) and whose thirdQuartile URL is refused, then two more ad breaks.
    func adBreaks(_ service: AdService, thirdBreak: Bool) -> [AdBreak] {
        let ad = StandardAd.make(id: "m1", start: adBreakStart, duration: 8_000, userTypes: [.mute]) { type in
            type == .thirdQuartile ? ["file:///etc/passwd"] : [service.beaconURL(ad: "m1", type)]
        }
        var adBreaks = [AdBreak(id: "p1", startTime: adBreakStart, duration: 8_000, ads: [ad]), Ads.adBreak(id: "p2", start: adBreakStart + 600_000, on: service)]
        if thirdBreak { adBreaks.append(Ads.adBreak(id: "p3", start: adBreakStart + 900_000, on: service)) }
        return adBreaks
    }

    @Test func aScriptedAdBreakShowsInTheScrapedMetrics() async throws {
        try await withPlayback(
            arguments: ["--metrics-address", "127.0.0.1:0", "--metadata-interval", "0.2"],
            serving: { service in
                service.answerBeacons(containing: "cn=midpoint", with: .status(404))
                service.serve(Ads.document(adBreaks(service, thirdBreak: false)))
            }
        ) { service, daemon in
            let port = try await Self.metricsPort(of: daemon)
            let listening = try ListeningSockets.tcp(ofProcess: daemon.child.processIdentifier)
            #expect(listening == ["127.0.0.1:\(port)"])
            try await daemon.waitForStatus("two ad breaks") { $0.adBreaks.count == 2 }
            // A refresh adds a third ad break: only that one is new.
            service.serve(Ads.document(adBreaks(service, thirdBreak: true)))
            try await daemon.waitForStatus("three ad breaks") { $0.adBreaks.count == 3 }

            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 1_000)
            feed.line("mute")
            feed.play(to: adBreakStart + 10_000)
            feed.line("garbage")
            feed.line("{\"playhead\": -5}")
            daemon.send(feed.lines)
            try await daemon.waitForStatus("7 beacons done and 2 bad lines") { report in
                report.counters.beaconsSent + report.counters.beaconsFailed == 7 && report.counters.badLines == 2
            }

            // The status counts a result when it is recorded; the metrics count it once the journal
            // acknowledged it, a commit later (longer on a loaded machine): wait for the metrics.
            let beacons = "beaconctl_beacons_total"
            let (response, metrics) = try await eventuallyValue(timeout: .seconds(30), "the metrics to count 7 finished beacons") {
                let scraped = try await Self.scrape(port: port)
                let (beaconCount, due) = (scraped.1.sum(beacons), scraped.1.value("beaconctl_tracking_events_due"))
                return beaconCount == 7 && due == 0 ? scraped : nil
            }
            let report = try await daemon.status()
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")

            #expect(metrics.types[beacons] == "counter")
            for type in [TrackingEventType.impression, .start, .firstQuartile, .complete, .mute] {
                #expect(metrics.value(beacons, ["event": type.rawValue, "result": "sent"]) == 1, "\(type)\n\(metrics.describe(beacons))")
            }
            #expect(metrics.value(beacons, ["event": "midpoint", "result": "failed"]) == 1, "\(metrics.describe(beacons))")
            #expect(metrics.value(beacons, ["event": "thirdQuartile", "result": "refused"]) == 1, "\(metrics.describe(beacons))")
            #expect(metrics.sum(beacons) == 7, "\(metrics.describe(beacons))")
            #expect(metrics.sum(beacons, matching: ["result": "sent"]) == Double(report.counters.beaconsSent))
            #expect(metrics.sum(beacons, matching: ["result": "failed"]) + metrics.sum(beacons, matching: ["result": "refused"]) == Double(report.counters.beaconsFailed))
            #expect(service.beacons.count == 6, "the sink saw every requested URL\n\(service.beaconSummary)")

            let events = "beaconctl_tracking_events_total"
            #expect(metrics.sum(events, matching: ["state": "done"]) == 5, "\(metrics.describe(events))")
            #expect(metrics.value(events, ["event": "midpoint", "state": "failed"]) == 1, "\(metrics.describe(events))")
            #expect(metrics.value(events, ["event": "thirdQuartile", "state": "failed"]) == 1, "\(metrics.describe(events))")
            #expect(metrics.value("beaconctl_tracking_events_due") == 0)

            // Six answers (five 2xx and the 404); the refused URL was never requested.
            let latency = "beaconctl_beacon_latency_seconds"
            #expect(metrics.types[latency] == "histogram")
            #expect(metrics.value("\(latency)_count") == 6, "\(metrics.describe(latency))")
            #expect(metrics.value("\(latency)_bucket", ["le": "+Inf"]) == 6, "\(metrics.describe(latency))")
            #expect((metrics.value("\(latency)_sum") ?? -1) >= 0)

            let fetches = "beaconctl_metadata_fetches_total"
            #expect(metrics.value(fetches, ["result": "applied"]) == 2, "\(metrics.describe(fetches))")
            #expect(metrics.value(fetches, ["result": "failed"]) == 0, "\(metrics.describe(fetches))")
            // The status was read after the scrape, and counts a request when it starts.
            #expect(metrics.sum(fetches) >= 2 && metrics.sum(fetches) <= Double(report.counters.metadataFetches), "\(metrics.describe(fetches))")

            #expect(metrics.value("beaconctl_ad_breaks_seen_total") == 3)
            #expect(metrics.value("beaconctl_bad_input_lines_total") == 2)
            #expect(metrics.value("beaconctl_sessions_total", ["result": "ready"]) == 1)
            #expect(metrics.value("beaconctl_sessions_total", ["result": "failed"]) == 0)
            #expect(metrics.value("beaconctl_session_active") == 1)
            #expect(metrics.types["beaconctl_metadata_age_seconds"] == "gauge")
            let metadataAge = try #require(metrics.value("beaconctl_metadata_age_seconds"))
            #expect(metadataAge >= 0 && metadataAge < 60)
            let tickAge = try #require(metrics.value("beaconctl_last_tick_age_seconds"))
            #expect(tickAge >= 0 && tickAge < 60)

            for (method, target) in [("POST", "/metrics"), ("HEAD", "/metrics"), ("DELETE", "/metrics"), ("GET", "/"), ("GET", "/metrics/x"), ("GET", "/status")] {
                let other = try await RawHTTP.request(method, target, port: port)
                #expect(other.status == 404, "\(method) \(target)")
                #expect(other.body.isEmpty, "\(method) \(target)")
            }
            try await finish(daemon)
        }
    }

    @Test func withoutTheFlagNothingListensOnTCP() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) { _, daemon in
            try await daemon.waitForStatus("the metadata") { $0.adBreaks.count == 1 }
            let listening = try ListeningSockets.tcp(ofProcess: daemon.child.processIdentifier)
            #expect(listening == [])
            #expect(!daemon.stderrText.contains("metrics"))
            try await finish(daemon)
        }
    }

    @Test func localhostMeansLoopbackAndAnIdleDaemonHasNoAges() async throws {
        try await withDaemon(["--metrics-address", "localhost:0"]) { daemon in
            try await daemon.waitUntilListening()
            let port = try await Self.metricsPort(of: daemon)
            let listening = try ListeningSockets.tcp(ofProcess: daemon.child.processIdentifier)
            #expect(listening == ["127.0.0.1:\(port)"])
            let (response, metrics) = try await Self.scrape(port: port)
            #expect(response.status == 200)
            #expect(metrics.value("beaconctl_session_active") == 0)
            #expect(metrics.value("beaconctl_sessions_total", ["result": "ready"]) == 0)
            #expect(metrics.types["beaconctl_last_tick_age_seconds"] == nil)
            #expect(metrics.types["beaconctl_metadata_age_seconds"] == nil)
            #expect(metrics.types["beaconctl_beacons_total"] == nil, "no beacon, no series")
            daemon.terminate()
            #expect(try await daemon.waitForExit() == 0)
        }
    }

    @Test func aTakenAddressStopsTheStartWithAClearError() async throws {
        let holder = try await HTTPServer.start { _ in .status(200) }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("c.sock")
        let result = try await runBeaconctl(["run", "--socket", socket, "--metrics-address", "127.0.0.1:\(holder.port)"])
        await holder.stop()
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot listen on 127.0.0.1:\(holder.port): Address already in use"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socket), "nothing else started")
    }

    @Test(arguments: [(":9464", "0.0.0.0:PORT for every interface"), ("metrics.example.com:9464", "must be an IP address or localhost")])
    func anInvalidAddressIsAConfigurationError(address: String, reason: String) async throws {
        let result = try await runBeaconctl(["run", "--metrics-address", address])
        #expect(result.status == 78, "EX_CONFIG: \(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
    }
}

/// The demo serves the same metrics when asked.
@Suite(.timeLimit(.minutes(5))) struct DemoMetricsTests {
    @Test func theDemoServesItsMetricsWhileItRuns() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let demo = try ChildProcess(
            executable: BeaconctlBinary.path,
            // Long enough that a loaded machine still scrapes it before it ends.
            arguments: ["demo", "--duration", "15", "--socket", directory.file("c.sock"), "--metrics-address", "127.0.0.1:0"])
        defer { demo.kill() }
        let port = try await eventuallyValue("the metrics line of the demo\n\(demo.stdout.text)") {
            MetricsTests.port(after: "metrics: curl -s http://127.0.0.1:", in: demo.stdout.lines)
        }
        try await eventually("a ready session and applied metadata in the demo's metrics") {
            let (_, metrics) = try await MetricsTests.scrape(port: port)
            return metrics.value("beaconctl_sessions_total", ["result": "ready"]) == 1
                && (metrics.value("beaconctl_metadata_fetches_total", ["result": "applied"]) ?? 0) >= 1
        }
        #expect(try await demo.waitForExit(timeout: .seconds(60)) == 0, "\(demo.stderr.text)")
    }
}
