import BeaconDomain
import BeaconHTTP
import BeaconRuntime
import BeaconSimulator
import Testing

/// The loopback heartbeat service of the end-to-end tests: it holds requests to the README's
/// contract, records them, and answers as scripted.
@Suite(.timeLimit(.minutes(2))) struct SimulatedHeartbeatServiceTests {
    static let validBody = """
        {"deviceId":"d1","contentId":"c1","catalogType":"movie","primaryContentId":null,"sessionId":"s1","event":"progress",\
        "state":"playing","playhead":1675135534076,"bookmark":null,"multiStream":false,"trackViewersCount":false,"ts":1700000000000}
        """

    static func post(
        _ client: CurlHTTPClient, _ url: String, body: String = validBody, token: String? = "t0k",
        contentType: String = "application/json", method: HTTPClientRequest.Method = .post
    ) async throws -> HTTPClientResponse {
        var headers = [("Content-Type", contentType)]
        if let token { headers.append(("X-Heartbeat-Token", token)) }
        return try await client.send(
            HTTPClientRequest(method: method, url: url, headers: headers, body: Array(body.utf8), maxResponseBytes: 4096))
    }

    static func withService(_ body: (SimulatedHeartbeatService, CurlHTTPClient) async throws -> Void) async throws {
        try await withLoopbackService({ try await SimulatedHeartbeatService.start(token: "t0k") }, stop: { await $0.stop() }, body)
    }

    @Test func answersHeartbeatsAsScriptedThenAsToldAndRecordsThem() async throws {
        try await Self.withService { (service, client) async throws in
            service.script([
                .success(syncInterval: 5_000, events: [.blackout(action: "DENY", blackoutURL: "http://slate.example/b"), .liveProgramStart]),
                .status(503),
                .status(403),
            ])
            let answered = try await Self.post(client, service.endpoint)
            #expect(answered.status == 200)
            #expect(String(decoding: answered.body, as: UTF8.self) == """
                {"syncInterval":5000,"events":[{"action":"DENY","blackoutUrl":"http://slate.example/b","event":"blackout"},{"event":"liveProgramStart"}]}
                """)
            #expect(try await Self.post(client, service.endpoint).status == 503)
            #expect(try await Self.post(client, service.endpoint).status == 403)
            // The script ran out: 200, empty, until told otherwise.
            let plain = try await Self.post(client, service.endpoint)
            #expect(plain.status == 200 && String(decoding: plain.body, as: UTF8.self) == "{}")
            service.answerFromThenOn(.success(events: [.liveEventEnd, .overflowEventEnd]))
            let events = try await Self.post(client, service.endpoint)
            #expect(String(decoding: events.body, as: UTF8.self) == #"{"events":[{"event":"liveEventEnd"},{"event":"overflowEventEnd"}]}"#)

            let heartbeats = service.heartbeats()
            #expect(heartbeats.count == 5)
            let first = try #require(heartbeats.first)
            #expect(first.violations == [])
            #expect(first.token == "t0k" && first.deviceID == "d1" && first.contentID == "c1" && first.catalogType == "movie")
            #expect(first.primaryContentID == nil && first.sessionID == "s1" && first.event == "progress" && first.state == "playing")
            #expect(first.playhead == 1_675_135_534_076 && first.bookmark == nil && first.multiStream == false)
            #expect(first.trackViewersCount == false && first.ts == 1_700_000_000_000)
        }
    }

    @Test(arguments: [
        (HTTPClientRequest.Method.get, "application/json", "t0k", validBody, "method GET, not POST"),
        (.post, "text/plain", "t0k", validBody, "Content-Type text/plain, not application/json"),
        (.post, "application/json", "", validBody, "no X-Heartbeat-Token"),
        (.post, "application/json", "other", validBody, "X-Heartbeat-Token is not the playback's token"),
        (.post, "application/json", "t0k", "[]", "the body is not a JSON object"),
        (.post, "application/json", "t0k", validBody.replacingOccurrences(of: #""ts":1700000000000"#, with: #""tz":1"#), "no ts"),
        (.post, "application/json", "t0k", validBody.replacingOccurrences(of: #""multiStream":false"#, with: #""multiStream":"no""#),
         "multiStream is a string, not true or false"),
        (.post, "application/json", "t0k", validBody.replacingOccurrences(of: #""event":"progress""#, with: #""event":"tick""#),
         #"event "tick" is none of ["progress", "start", "stateChange", "stop"]"#),
        (.post, "application/json", "t0k", validBody.replacingOccurrences(of: #""deviceId":"d1""#, with: #""deviceId":null"#),
         "deviceId is null"),
        (.post, "application/json", "t0k", validBody.replacingOccurrences(of: #""playhead":1675135534076"#, with: #""playhead":"12""#),
         "playhead is a string, not a number"),
    ])
    func aHeartbeatBreakingTheContractIsRecordedWithWhyAndAnswered400(
        method: HTTPClientRequest.Method, contentType: String, token: String, body: String, violation: String
    ) async throws {
        try await Self.withService { (service, client) async throws in
            let answer = try await Self.post(client, service.endpoint, body: body, token: token, contentType: contentType, method: method)
            #expect(answer.status == 400)
            let heartbeat = try #require(service.heartbeats().first)
            // A GET carries no body either.
            #expect(heartbeat.violations == [violation] + (method == .get ? ["the body is not a JSON object"] : []))
        }
    }

    @Test func aContentTypeWithItsCharsetIsJSON() async throws {
        try await Self.withService { (service, client) async throws in
            #expect(try await Self.post(client, service.endpoint, contentType: "application/json; charset=utf-8").status == 200)
            #expect(service.heartbeats().first?.violations == [])
        }
    }

    @Test func slowAnswersWaitAndDroppedConnectionsFail() async throws {
        try await Self.withService { (service, client) async throws in
            service.script([.slow(.milliseconds(300), .status(500)), .dropConnection])
            let slow = try await Self.post(client, service.endpoint)
            #expect(slow.status == 500 && slow.latencyMilliseconds >= 300)
            await #expect(throws: HTTPClientError.self) { try await Self.post(client, service.endpoint) }
            #expect(service.heartbeats().count == 2)
        }
    }

    @Test func refusedConnectionsFailUntilItListensAgainOnTheSamePort() async throws {
        try await Self.withService { (service, client) async throws in
            await service.refuseConnections()
            await #expect(throws: HTTPClientError.self) { try await Self.post(client, service.endpoint) }
            try await service.acceptConnections()
            #expect(try await Self.post(client, service.endpoint).status == 200)
            #expect(service.heartbeats().count == 1)
        }
    }

    @Test func theConcurrencyEndpointCountsStartsAndStopsAndAnswersAsTold() async throws {
        try await Self.withService { (service, client) async throws in
            let start = #"{"deviceId":"d1","contentId":"c1","event":"start"}"#
            #expect(try await Self.post(client, service.concurrencyEndpoint, body: start, token: nil).status == 200)
            service.answerConcurrency(409)
            #expect(try await Self.post(client, service.concurrencyEndpoint, body: start, token: nil).status == 409)
            service.answerConcurrency(429)
            #expect(try await Self.post(client, service.concurrencyEndpoint, body: start, token: nil).status == 429)
            let stop = #"{"deviceId":"d1","contentId":null,"event":"stop"}"#
            #expect(try await Self.post(client, service.concurrencyEndpoint, body: stop, token: nil).status == 429)
            let wrong = #"{"deviceId":"d1","contentId":"c1","event":"pause"}"#
            #expect(try await Self.post(client, service.concurrencyEndpoint, body: wrong, token: nil).status == 400)

            let requests = service.concurrencyRequests()
            #expect(requests.map(\.event) == ["start", "start", "start", "stop", "pause"])
            #expect(requests.prefix(4).allSatisfy { $0.violations.isEmpty && $0.deviceID == "d1" })
            #expect(requests[3].contentID == nil)
            #expect(requests[4].violations == [#"event "pause" is none of ["start", "stop"]"#])
            #expect(service.heartbeats().isEmpty)
        }
    }
}
