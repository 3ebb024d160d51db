import BeaconDomain
import BeaconHTTP
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconTesting
import BeaconSimulator
import Testing

/// Real libcurl against a real server on 127.0.0.1.
@Suite("CurlHTTPClient against a loopback server", .timeLimit(.minutes(2)))
struct CurlHTTPClientTests {
    typealias Request = HTTPServer.Request
    typealias Response = HTTPServer.Response

    /// Runs `body` with a started server and client, and always stops both.
    func withServer(
        configuration: CurlHTTPClient.Configuration = CurlHTTPClient.Configuration(
            connectTimeout: .seconds(10), totalTimeout: .seconds(30), userAgent: "beaconctl/test"),
        handler: @escaping HTTPServer.Handler,
        _ body: (HTTPServer, CurlHTTPClient, Recorder<Request>) async throws -> Void
    ) async throws {
        let recorder = Recorder<Request>()
        let server = try await HTTPServer.start(host: "127.0.0.1", port: 0) { request in
            recorder.append(request)
            return await handler(request)
        }
        let client = CurlHTTPClient(configuration: configuration)
        do {
            try await body(server, client, recorder)
        } catch {
            await client.shutdown()
            await server.stop()
            throw error
        }
        await client.shutdown()
        await server.stop()
    }

    func get(_ url: String, maxResponseBytes: Int = 1 << 20) -> HTTPClientRequest {
        HTTPClientRequest(method: .get, url: url, maxResponseBytes: maxResponseBytes)
    }

    @Test func getReturnsStatusBodyAndFinalURL() async throws {
        try await withServer(handler: { _ in .text("hello beacon") }) { server, client, recorder in
            let response = try await client.send(get(server.baseURL + "/hello?x=1"))
            #expect(response.status == 200)
            #expect(response.isSuccess)
            #expect(String(decoding: response.body, as: UTF8.self) == "hello beacon")
            #expect(response.finalURL == server.baseURL + "/hello?x=1")
            #expect(response.latencyMilliseconds >= 0)
            #expect(response.latencyMilliseconds < 5000)
            let seen = try #require(recorder.all.first)
            #expect(seen.method == "GET")
            #expect(seen.path == "/hello")
            #expect(seen.query == "x=1")
            #expect(seen.header("User-Agent") == "beaconctl/test")
        }
    }

    @Test func postSendsMethodBodyAndHeaders() async throws {
        try await withServer(handler: { _ in .status(204) }) { server, client, recorder in
            let payload = Array(#"{"event":"impression"}"#.utf8)
            let response = try await client.send(
                HTTPClientRequest(
                    method: .post, url: server.baseURL + "/session",
                    headers: [(name: "Content-Type", value: "application/json"), (name: "X-Beacon", value: "42")],
                    body: payload, maxResponseBytes: 1024))
            #expect(response.status == 204)
            let seen = try #require(recorder.all.first)
            #expect(seen.method == "POST")
            #expect(seen.body == payload)
            #expect(seen.header("Content-Type") == "application/json")
            #expect(seen.header("X-Beacon") == "42")
            #expect(seen.header("Expect") == nil)
        }
    }

    @Test func postWithEmptyBodyIsStillAPost() async throws {
        try await withServer(handler: { _ in .status(200) }) { server, client, recorder in
            let response = try await client.send(
                HTTPClientRequest(method: .post, url: server.baseURL + "/ping", maxResponseBytes: 0))
            #expect(response.status == 200)
            let seen = try #require(recorder.all.first)
            #expect(seen.method == "POST")
            #expect(seen.body.isEmpty)
            #expect(seen.header("Content-Length") == "0")
        }
    }

    @Test(arguments: [404, 500])
    func errorStatusesAreResponses(status: Int) async throws {
        try await withServer(handler: { _ in .text("nope", status: status) }) { server, client, _ in
            let response = try await client.send(get(server.baseURL + "/missing"))
            #expect(response.status == status)
            #expect(!response.isSuccess)
            #expect(String(decoding: response.body, as: UTF8.self) == "nope")
        }
    }

    @Test func retryAfterIsTheLastResponsesHeaderAsSent() async throws {
        try await withServer(handler: { request in
            switch request.path {
            case "/busy": Response(status: 503, headers: [("retry-AFTER", " 120 ")])
            case "/moved": Response(status: 302, headers: [("Location", "/plain"), ("Retry-After", "30")])
            case "/dated": Response(status: 429, headers: [("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT")])
            default: .status(200)
            }
        }) { server, client, _ in
            #expect(try await client.send(get(server.baseURL + "/busy")).retryAfter == "120")
            #expect(try await client.send(get(server.baseURL + "/dated")).retryAfter == "Wed, 21 Oct 2015 07:28:00 GMT")
            #expect(try await client.send(get(server.baseURL + "/plain")).retryAfter == nil)
            // A redirect's Retry-After is about the redirect, not the response it leads to.
            let redirected = try await client.send(get(server.baseURL + "/moved"))
            #expect(redirected.finalURL == server.baseURL + "/plain")
            #expect(redirected.retryAfter == nil)
        }
    }

    @Test func locationIsTheLastResponsesHeaderAsSent() async throws {
        try await withServer(handler: { request in
            switch request.path {
            case "/api/v1/sessions": Response(status: 201, headers: [("location", " /api/v1/sessions/abc123 ")])
            case "/moved": Response(status: 302, headers: [("Location", "/plain")])
            default: .status(200)
            }
        }) { server, client, _ in
            let created = try await client.send(HTTPClientRequest(method: .post, url: server.baseURL + "/api/v1/sessions", maxResponseBytes: 0))
            #expect(created.status == 201)
            #expect(created.location == "/api/v1/sessions/abc123")
            #expect(try await client.send(get(server.baseURL + "/plain")).location == nil)
            // A redirect's Location led to the response; the response itself named none.
            #expect(try await client.send(get(server.baseURL + "/moved")).location == nil)
        }
    }

    /// `/hop/N` redirects to `/hop/N-1`; `/hop/0` answers 200.
    static let hops: HTTPServer.Handler = { request in
        guard request.path.hasPrefix("/hop/"), let n = Int(request.path.dropFirst(5)) else { return .status(404) }
        return n == 0 ? .text("arrived") : .redirect(to: "/hop/\(n - 1)")
    }

    @Test func followsARedirectChain() async throws {
        try await withServer(handler: Self.hops) { server, client, recorder in
            let response = try await client.send(get(server.baseURL + "/hop/3"))
            #expect(response.status == 200)
            #expect(response.finalURL == server.baseURL + "/hop/0")
            #expect(String(decoding: response.body, as: UTF8.self) == "arrived")
            #expect(recorder.all.map(\.path) == ["/hop/3", "/hop/2", "/hop/1", "/hop/0"])
        }
    }

    @Test func followsAtMostFiveRedirects() async throws {
        try await withServer(handler: Self.hops) { server, client, _ in
            let five = try await client.send(get(server.baseURL + "/hop/5"))
            #expect(five.status == 200)
            await #expect(throws: HTTPClientError.tooManyRedirects) {
                try await client.send(get(server.baseURL + "/hop/6"))
            }
        }
    }

    @Test func redirectLoopFailsWithTooManyRedirects() async throws {
        try await withServer(handler: { request in
            .redirect(to: request.path == "/a" ? "/b" : "/a")
        }) { server, client, recorder in
            await #expect(throws: HTTPClientError.tooManyRedirects) {
                try await client.send(get(server.baseURL + "/a"))
            }
            #expect(recorder.all.count == 6)
        }
    }

    @Test func nonHTTPSchemesFailBeforeAnyRequest() async throws {
        try await withServer(handler: { _ in .text("should not be reached") }) { server, client, recorder in
            await #expect(throws: HTTPClientError.unsupportedScheme("file")) {
                try await client.send(get("file:///etc/passwd"))
            }
            await #expect(throws: HTTPClientError.unsupportedScheme("dict")) {
                try await client.send(get("dict://127.0.0.1:\(server.port)/"))
            }
            await #expect(throws: HTTPClientError.unsupportedScheme("ftp")) {
                try await client.send(get("FTP://127.0.0.1:\(server.port)/"))
            }
            await #expect(throws: HTTPClientError.unsupportedScheme("gopher")) {
                try await client.send(get("gopher://127.0.0.1:\(server.port)/"))
            }
            await #expect(throws: HTTPClientError.invalidURL("no-scheme-here")) {
                try await client.send(get("no-scheme-here?token=secret"))
            }
            #expect(recorder.all.isEmpty)
            #expect(server.connectionsAccepted == 0)
        }
    }

    @Test(arguments: ["file:///etc/passwd", "dict://127.0.0.1/"])
    func redirectToNonHTTPSchemeIsRefused(target: String) async throws {
        try await withServer(handler: { _ in .redirect(to: target) }) { server, client, recorder in
            let scheme = String(target.prefix { $0 != ":" })
            await #expect(throws: HTTPClientError.unsupportedScheme(scheme)) {
                try await client.send(get(server.baseURL + "/jump"))
            }
            #expect(recorder.all.count == 1)
        }
    }

    @Test func serverThatNeverAnswersTimesOut() async throws {
        let configuration = CurlHTTPClient.Configuration(connectTimeout: .seconds(2), totalTimeout: .milliseconds(500))
        try await withServer(configuration: configuration, handler: { _ in await .noAnswer() }) { server, client, _ in
            let clock = ContinuousClock()
            let started = clock.now
            await #expect(throws: HTTPClientError.timedOut) {
                try await client.send(get(server.baseURL + "/silent"))
            }
            let elapsed = started.duration(to: clock.now)
            #expect(elapsed >= .milliseconds(450))
            #expect(elapsed < .seconds(10), "the total timeout ended it, long before anything else would")
        }
    }

    @Test(arguments: [false, true])
    func bodyOverTheCapFails(chunked: Bool) async throws {
        let big = [UInt8](repeating: 0x61, count: 10_000)
        try await withServer(handler: { request in
            request.path == "/exact"
                ? Response(body: Array(big.prefix(100)), chunked: chunked)
                : Response(body: big, chunked: chunked)
        }) { server, client, _ in
            await #expect(throws: HTTPClientError.responseTooLarge(limit: 100)) {
                try await client.send(get(server.baseURL + "/big", maxResponseBytes: 100))
            }
            let exact = try await client.send(get(server.baseURL + "/exact", maxResponseBytes: 100))
            #expect(exact.body.count == 100)
        }
    }

    /// An endless body must be cut at the cap as it streams in: read whole, it would never end.
    @Test func anEndlessBodyIsAbortedAtTheCap() async throws {
        try await withServer(handler: { _ in .endless([UInt8](repeating: 0x61, count: 65_536)) }) { server, client, _ in
            await #expect(throws: HTTPClientError.responseTooLarge(limit: 1 << 20)) {
                try await client.send(get(server.baseURL + "/endless", maxResponseBytes: 1 << 20))
            }
        }
    }

    @Test func aDrippingBodyEndsAtTheTotalTimeout() async throws {
        let configuration = CurlHTTPClient.Configuration(connectTimeout: .seconds(2), totalTimeout: .milliseconds(500))
        try await withServer(configuration: configuration, handler: { _ in .drip(Array("{}".utf8) + [UInt8](repeating: 0x20, count: 60), every: .milliseconds(100)) }) {
            server, client, _ in
            await #expect(throws: HTTPClientError.timedOut) {
                try await client.send(get(server.baseURL + "/drip"))
            }
        }
    }

    /// Expects `url` to fail after its host answered: what broke then is the URL's, not a sign the
    /// host is down.
    func expectTransferFailure(_ url: String, on client: CurlHTTPClient, sourceLocation: SourceLocation = #_sourceLocation) async {
        let error = await #expect(throws: HTTPClientError.self, sourceLocation: sourceLocation) {
            try await client.send(get(url))
        }
        guard case .transferFailed = error else {
            Issue.record("expected transferFailed, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(error?.isHostUnreachable == false, sourceLocation: sourceLocation)
    }

    @Test func aBodyCutOffMidwayIsATransferFailure() async throws {
        try await withServer(handler: { _ in .cutOff(Array(#"{"dataRange": {"start": 1}}"#.utf8), after: 10) }) { server, client, _ in
            await expectTransferFailure(server.baseURL + "/cut", on: client)
        }
    }

    @Test func aRedirectToAHostThatRefusesIsATransferFailureOfTheURL() async throws {
        let gone = try await HTTPServer.start(host: "127.0.0.1", port: 0) { _ in .status(200) }
        let target = gone.baseURL + "/pixel"
        await gone.stop()
        try await withServer(handler: { _ in .redirect(to: target) }) { server, client, _ in
            await expectTransferFailure(server.baseURL + "/moved", on: client)
        }
    }

    /// A request waiting for one of the host's connections is not on the wire: with one connection
    /// and answers taking 1 s, the eighth request waits 7 s and still gets its full 6 s. Counted
    /// from the queue, the seventh and eighth would time out; each has 5 s of slack for a loaded machine.
    @Test func theTotalTimeoutCountsFromWhenTheRequestIsSent() async throws {
        let configuration = CurlHTTPClient.Configuration(
            connectTimeout: .seconds(10), totalTimeout: .seconds(6), maxConnectionsPerHost: 1, userAgent: "beaconctl/test")
        try await withServer(configuration: configuration, handler: { _ in await .delayed(.seconds(1), .status(204)) }) {
            server, client, recorder in
            let reports = Recorder<(Int, Result<HTTPClientResponse, HTTPClientError>)>()
            await client.send((0..<8).map { get(server.baseURL + "/slow/\($0)", maxResponseBytes: 0) }) { reports.append(($0, $1)) }
            #expect(reports.all.count == 8)
            #expect(reports.all.allSatisfy { (try? $0.1.get())?.status == 204 }, "\(reports.all.map(\.1))")
            #expect(recorder.all.count == 8)
        }
    }

    @Test func zeroCapDiscardsTheBody() async throws {
        try await withServer(handler: { _ in Response(body: [UInt8](repeating: 0x62, count: 50_000)) }) {
            server, client, _ in
            let response = try await client.send(get(server.baseURL + "/pixel", maxResponseBytes: 0))
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
        }
    }

    @Test func connectionRefusedIsConnectionFailed() async throws {
        let server = try await HTTPServer.start(host: "127.0.0.1", port: 0) { _ in .status(200) }
        let url = server.baseURL + "/gone?token=secret"
        await server.stop()
        let client = CurlHTTPClient(connectTimeout: .seconds(2), totalTimeout: .seconds(5))
        let error = await #expect(throws: HTTPClientError.self) {
            try await client.send(get(url))
        }
        await client.shutdown()
        guard case .connectionFailed(let reason) = error else {
            Issue.record("expected connectionFailed, got \(String(describing: error))")
            return
        }
        #expect(!reason.contains("secret"))
        #expect(error?.isHostUnreachable == true)
    }

    @Test func sequentialRequestsReuseTheConnection() async throws {
        try await withServer(handler: { request in .text(request.path) }) { server, client, _ in
            for index in 0..<20 {
                let response = try await client.send(get(server.baseURL + "/seq/\(index)"))
                #expect(String(decoding: response.body, as: UTF8.self) == "/seq/\(index)")
            }
            #expect(server.connectionsAccepted >= 1)
            #expect(server.connectionsAccepted <= 2)
        }
    }

    @Test func fiftyConcurrentRequestsAllComplete() async throws {
        try await withServer(handler: { request in
            await .delayed(.milliseconds(20), .text(request.path))
        }) { server, client, recorder in
            let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 0..<50 {
                    group.addTask {
                        let response = try await client.send(get(server.baseURL + "/c/\(index)"))
                        return (index, String(decoding: response.body, as: UTF8.self))
                    }
                }
                var bodies: [Int: String] = [:]
                for try await (index, body) in group { bodies[index] = body }
                return bodies
            }
            #expect(bodies.count == 50)
            #expect(bodies.allSatisfy { $0.value == "/c/\($0.key)" })
            #expect(recorder.all.count == 50)
            // The per-host cap of 6 connections holds.
            #expect(server.connectionsAccepted <= 6)
        }
    }

    @Test func aBurstToTwentyHostsKeepsEachWithinThePerHostLimit() async throws {
        // 127.0.0.1 to 127.0.0.20 are twenty hosts to curl, all on loopback.
        var servers: [HTTPServer] = []
        for host in 1...20 {
            servers.append(try await HTTPServer.start(host: "127.0.0.\(host)") { _ in
                await .delayed(.milliseconds(5), .status(204))
            })
        }
        let client = CurlHTTPClient()
        let statuses = await withTaskGroup(of: Int.self) { group in
            for index in 0..<400 {
                let server = servers[index % servers.count]
                group.addTask { (try? await client.send(get(server.baseURL + "/b/\(index)", maxResponseBytes: 0)))?.status ?? 0 }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        await client.shutdown()
        for server in servers { await server.stop() }
        #expect(statuses.count == 400 && statuses.allSatisfy { $0 == 204 })
        // Too small a connection cache would close idle connections to open others, again and again.
        #expect(servers.allSatisfy { $0.connectionsAccepted <= client.configuration.maxConnectionsPerHost })
    }

    @Test func aBatchReportsEachRequestOnceByItsIndex() async throws {
        try await withServer(handler: { request in
            await .delayed(.milliseconds(2), request.path.hasSuffix("/7") ? .status(404) : .text(request.path))
        }) { server, client, recorder in
            var requests = (0..<60).map { get(server.baseURL + "/batch/\($0)") }
            requests[10] = get("file:///etc/passwd")
            requests[20] = get("no-scheme-here?token=secret")
            let reports = Recorder<(Int, Result<HTTPClientResponse, HTTPClientError>)>()
            await client.send(requests) { index, result in reports.append((index, result)) }

            let byIndex = Dictionary(grouping: reports.all, by: \.0)
            #expect(byIndex.count == 60 && byIndex.values.allSatisfy { $0.count == 1 }, "every request reported, once")
            for (index, entries) in byIndex {
                let result = entries[0].1
                switch index {
                case 10: #expect(result == .failure(.unsupportedScheme("file")))
                case 20: #expect(result == .failure(.invalidURL("no-scheme-here")))
                case 7: #expect((try? result.get())?.status == 404)
                default:
                    let response = try #require(try? result.get(), "request \(index)")
                    #expect(String(decoding: response.body, as: UTF8.self) == "/batch/\(index)")
                }
            }
            #expect(recorder.all.count == 58, "refused URLs never reach the network")
            #expect(server.connectionsAccepted <= client.configuration.maxConnectionsPerHost)
        }
    }

    @Test func anEmptyBatchReturnsAtOnce() async throws {
        try await withServer(handler: { _ in .status(200) }) { _, client, recorder in
            let reports = Recorder<Int>()
            await client.send([]) { index, _ in reports.append(index) }
            #expect(reports.all.isEmpty)
            #expect(recorder.all.isEmpty)
        }
    }

    @Test func cancellingABatchReportsEveryPendingRequestCancelled() async throws {
        try await withServer(handler: { _ in await .noAnswer() }) { server, client, recorder in
            // 6 in flight on the host's connections, 4 waiting for one.
            let requests = (0..<10).map { get(server.baseURL + "/hang/\($0)") }
            let reports = Recorder<(Int, Result<HTTPClientResponse, HTTPClientError>)>()
            let task = Task { await client.send(requests) { index, result in reports.append((index, result)) } }
            try await eventually(timeout: .seconds(15), "the host's connections to be busy") {
                recorder.all.count == client.configuration.maxConnectionsPerHost
            }
            #expect(reports.all.isEmpty)
            task.cancel()
            await task.value
            #expect(Set(reports.all.map(\.0)) == Set(0..<10))
            #expect(reports.all.count == 10)
            #expect(reports.all.allSatisfy { $0.1 == .failure(.cancelled) })
        }
    }

    @Test func cancellingTheCallerEndsWithCancelled() async throws {
        try await withServer(handler: { _ in await .noAnswer() }) { server, client, recorder in
            let request = get(server.baseURL + "/hang")
            let task = Task { () async throws(HTTPClientError) -> HTTPClientResponse in
                try await client.send(request)
            }
            try await untilInFlight(recorder)
            #expect(recorder.all.count == 1)
            let clock = ContinuousClock()
            let cancelledAt = clock.now
            task.cancel()
            let result = await task.result
            #expect(cancelledAt.duration(to: clock.now) < .seconds(10), "ended by the cancellation, long before the total timeout")
            #expect(throws: HTTPClientError.cancelled) { try result.get() }
        }
    }

    @Test func cancelledBeforeSendingNeverStarts() async throws {
        try await withServer(handler: { _ in .status(200) }) { server, client, recorder in
            let request = get(server.baseURL + "/never")
            let task = Task { () async throws(HTTPClientError) -> HTTPClientResponse in
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.send(request)
            }
            await #expect(throws: HTTPClientError.cancelled) { try await task.result.get() }
            try await Task.sleep(for: .milliseconds(100))
            #expect(recorder.all.isEmpty)
        }
    }

    @Test func shutdownFailsPendingAndLaterRequests() async throws {
        try await withServer(handler: { _ in await .noAnswer() }) { server, client, recorder in
            let request = get(server.baseURL + "/hang")
            let task = Task { () async throws(HTTPClientError) -> HTTPClientResponse in
                try await client.send(request)
            }
            try await untilInFlight(recorder)
            await client.shutdown()
            await #expect(throws: HTTPClientError.cancelled) { try await task.result.get() }
            await #expect(throws: HTTPClientError.cancelled) {
                try await client.send(request)
            }
        }
    }
}

/// Waits until the server has seen a request, so the transfer is in flight.
private func untilInFlight(_ recorder: Recorder<HTTPServer.Request>) async throws {
    try await eventually(timeout: .seconds(15), "the request to reach the server") { !recorder.all.isEmpty }
}
