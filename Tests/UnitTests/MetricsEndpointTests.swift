import BeaconDomain
import BeaconHTTP
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconTesting
import Testing

/// What `/metrics` answers, in process and over a real socket.
@Suite(.timeLimit(.minutes(2))) struct MetricsEndpointTests {
    static let now: Milliseconds = 1_700_000_000_000
    let endpoint = MetricsEndpoint(now: { Self.now })

    func status() -> StatusReport {
        StatusReport(
            version: "test", state: "playing",
            session: SessionEndpoints(mediaURL: "http://127.0.0.1/m", manifestURL: "http://127.0.0.1/m", trackingURL: "http://127.0.0.1/t", sessionID: "s"),
            playhead: nil, lastTickAt: Self.now - 3_000, dataRange: nil, adBreaks: [], counters: .init())
    }

    @Test(arguments: ["/metrics", "/metrics?name[]=beaconctl_beacons_total"])
    func getMetricsAnswersTheExpositionWithGaugesAsOfTheScrape(uri: String) async throws {
        endpoint.metrics.receive(.lineRejected(reason: "garbage"))
        let response = await endpoint.respond(to: HTTPServer.Request(method: "GET", uri: uri)) { status() }
        #expect(response.status == 200)
        #expect(response.headers.map(\.name) == ["Content-Type"])
        #expect(response.headers.first?.value == "text/plain; version=0.0.4; charset=utf-8")
        let lines = String(decoding: response.body, as: UTF8.self).split(separator: "\n")
        #expect(lines.contains("beaconctl_bad_input_lines_total 1"))
        #expect(lines.contains("beaconctl_last_tick_age_seconds 3.0"))
        #expect(lines.contains("beaconctl_session_active 1.0"))
    }

    @Test(arguments: [
        ("POST", "/metrics"), ("HEAD", "/metrics"), ("PUT", "/metrics"), ("DELETE", "/metrics"),
        ("GET", "/"), ("GET", "/metrics/"), ("GET", "/metricsx"), ("GET", "/Metrics"), ("GET", "/status"),
    ])
    func everythingElseIsNotFound(method: String, uri: String) async {
        let response = await endpoint.respond(to: HTTPServer.Request(method: method, uri: uri)) { status() }
        #expect(response.status == 404)
        #expect(response.body.isEmpty)
    }

    @Test func servesOverHTTPAndRefusesARequestBodyOverItsBound() async throws {
        let server = try await endpoint.serve(at: MetricsAddress(parsing: "127.0.0.1:0")) { status() }
        let client = CurlHTTPClient(userAgent: "beaconctl/test")
        let url = "\(server.baseURL)/metrics"
        let scrape = try await client.send(HTTPClientRequest(url: url, maxResponseBytes: 1 << 20))
        let small = try await client.send(HTTPClientRequest(method: .post, url: url, body: Array(repeating: 0x61, count: 100), maxResponseBytes: 0))
        let big = try await client.send(
            HTTPClientRequest(method: .post, url: url, body: Array(repeating: 0x61, count: MetricsEndpoint.maxRequestBodyBytes + 1), maxResponseBytes: 0))
        await client.shutdown()
        await server.stop()
        #expect(scrape.status == 200)
        #expect(String(decoding: scrape.body, as: UTF8.self).contains("beaconctl_session_active 1.0"))
        #expect(small.status == 404)
        #expect(big.status == 413)
    }
}
