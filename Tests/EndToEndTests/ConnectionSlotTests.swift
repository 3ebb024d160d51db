import BeaconDomain
import BeaconHTTP
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Testing

/// A host's connections: what waits for one is not on the wire. The real binary against slow and
/// hanging loopback servers, counting requests per URL at the server.
@Suite(.timeLimit(.minutes(5))) struct ConnectionSlotTests {
    let reliability = ReliabilityTests()
    var adBreakStart: Milliseconds { reliability.adBreakStart }
    let adDuration: Milliseconds = 8_000

    /// One ad whose impression signals `count` URLs on `sink`, `&n=1`...
    func burst(_ id: String, count: Int, on sink: BeaconSink) -> (adBreak: AdBreak, uris: [String]) {
        let urls = (1...count).map { sink.url(ad: id, .impression) + "&n=\($0)" }
        let ad = StandardAd.make(id: id, start: adBreakStart, duration: adDuration, userTypes: []) { $0 == .impression ? urls : [] }
        let uris = urls.map { String($0.dropFirst("http://127.0.0.1:\(sink.port)".count)) }
        return (AdBreak(id: "p-\(id)", startTime: adBreakStart, duration: adDuration, ads: [ad]), uris)
    }

    /// Requests the sink saw of each of `uris`.
    func requestsPerURI(_ uris: [String], on sink: BeaconSink) -> [Int] {
        let received = sink.received.map(\.uri)
        return uris.map { uri in received.count { $0 == uri } }
    }

    /// 36 beacons due at once to a host answering each request after 1.5 s, with a 6 s timeout:
    /// each reaches the server once. The host's 6 connections take 6 rounds, 9 s: counted from when
    /// they were queued, the last rounds (sent 6 s and 7.5 s after) would time out client-side while
    /// the server already had them, and be sent again. Each request has 4.5 s of slack for a loaded machine.
    @Test func aSlowHostGetsEachBeaconOnce() async throws {
        try await withBeaconSink { sink in
            sink.answer { _, _ in await .delayed(.milliseconds(1_500), .status(204)) }
            let (adBreak, uris) = burst("slow", count: 36, on: sink)
            try await withAdService { service in
                service.serve(Ads.document([adBreak]))
                try await withDaemon(["--media-url", reliability.mediaURL(service), "--stdin", "--http-timeout", "6"]) { daemon in
                    try await daemon.waitUntilListening()
                    var feed = TickFeed(from: Ads.t0)
                    feed.play(to: adBreakStart + 500)
                    daemon.send(feed.lines)
                    let report = try await daemon.waitForStatus(timeout: .seconds(120), "the 36 beacons finished") { report in
                        let impressions = report.deliveries.filter { $0.event == .impression }
                        return impressions.count == 36 && impressions.allSatisfy(\.state.isFinished)
                    }
                    let counts = requestsPerURI(uris, on: sink)
                    #expect(counts.allSatisfy { $0 == 1 }, "\(counts.count { $0 > 1 }) of 36 requested more than once: \(counts)")
                    #expect(report.counters.beaconsSent == 36)
                    #expect(report.counters.beaconsRetried == 0)
                    try await finish(daemon)
                }
            }
        }
    }

    /// Beacon requests hanging on the metadata host hold all its beacon connections; the metadata
    /// is still refreshed at its interval, on connections of its own.
    @Test func beaconRequestsHangingOnTheMetadataHostNeverDelayARefresh() async throws {
        try await withAdService { service in
            service.answerBeacons(containing: "cn=impression", with: .delay(.seconds(60)))
            let urls = (1...8).map { service.beaconURL(ad: "hang", .impression, extra: "&n=\($0)") }
            let ad = StandardAd.make(id: "hang", start: adBreakStart, duration: adDuration, userTypes: []) { $0 == .impression ? urls : [] }
            service.serve(Ads.document([AdBreak(id: "p-hang", startTime: adBreakStart, duration: adDuration, ads: [ad])]))
            let mediaURL = "\(service.baseURL)/live/master.m3u8?sessid=slots"
            try await withDaemon(["--media-url", mediaURL, "--stdin", "--http-timeout", "120", "--metadata-interval", "1"]) { daemon in
                try await daemon.waitUntilListening()
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: adBreakStart + 500)
                daemon.send(feed.lines)
                try await eventually(timeout: .seconds(20), "the beacon connections to the host held") {
                    service.beacons.count >= CurlHTTPClient.Configuration.defaultMaxConnectionsPerHost
                }
                let before = service.metadataRequests.count
                let clock = ContinuousClock()
                let started = clock.now
                try await eventually(timeout: .seconds(30), "three refreshes while the beacons hang") {
                    service.metadataRequests.count >= before + 3
                }
                let elapsed = started.duration(to: clock.now)
                // A refresh that waited for a beacon connection would come after the 60 s the beacons
                // hang; 3 at a 1 s interval take about 3 s, and up to 20 on a loaded machine.
                #expect(elapsed < .seconds(20), "three refreshes at a 1 s interval took \(elapsed)")
                let report = try await daemon.status()
                #expect(report.deliveries.filter { $0.state == .inFlight }.count == CurlHTTPClient.Configuration.defaultMaxConnectionsPerHost)
                daemon.kill()
                _ = try await daemon.waitForExit()
            }
        }
    }

    /// A kill -9 while 40 beacons wait on a hanging host: after the restart, only the requests the
    /// server had seen count as possible re-sends, and every beacon is delivered.
    @Test func afterKillNineOnlyRequestsOnTheWireCountAsResent() async throws {
        let state = try TemporaryDirectory()
        let environment = ["STATE_DIRECTORY": state.path]
        try await withBeaconSink { sink in
            sink.answer { _, _ in await .noAnswer() }
            let (adBreak, uris) = burst("kill", count: 40, on: sink)
            try await withAdService { service in
                service.serve(Ads.document([adBreak]))
                let arguments = ["--media-url", reliability.mediaURL(service), "--stdin", "--http-timeout", "120"]
                var onTheWire = 0
                try await withDaemon(arguments, environment: environment) { daemon in
                    try await daemon.waitUntilListening()
                    var feed = TickFeed(from: Ads.t0)
                    feed.play(to: adBreakStart + 500)
                    daemon.send(feed.lines)
                    try await daemon.waitForStatus("the burst started") { report in
                        report.deliveries.filter { $0.event == .impression }.count == 40 && report.deliveries.contains { $0.state == .inFlight }
                    }
                    try await eventually("the host's connections busy") { sink.received.count >= 6 }
                    // Time for anything else that was going to leave to reach the server.
                    try await Task.sleep(for: .seconds(1))
                    onTheWire = sink.received.count
                    daemon.kill()
                    _ = try await daemon.waitForExit()
                }
                sink.answer { _, _ in .status(204) }
                try await withDaemon(arguments, environment: environment) { daemon in
                    let report = try await daemon.waitForStatus(timeout: .seconds(60), "the 40 delivered after the restart") { report in
                        let impressions = report.deliveries.filter { $0.event == .impression }
                        return impressions.count == 40 && impressions.allSatisfy { $0.state == .delivered }
                    }
                    #expect(report.counters.beaconsResent >= 1)
                    #expect(report.counters.beaconsResent <= onTheWire, "resent \(report.counters.beaconsResent), on the wire \(onTheWire)")
                    let counts = requestsPerURI(uris, on: sink)
                    #expect(counts.allSatisfy { (1...2).contains($0) }, "\(counts)")
                    #expect(counts.filter { $0 == 2 }.count <= onTheWire)
                    try await finish(daemon)
                }
            }
        }
    }
}
