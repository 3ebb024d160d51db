import BeaconDomain
import BeaconHTTP
import BeaconRuntime
import BeaconSimulator
import BeaconTesting
import Foundation
import Glibc
import Testing

/// The Media Collection double served on loopback, reached through the client the reporters use.
@Suite("The simulated Media Collection API over loopback", .timeLimit(.minutes(2)))
struct SimulatedMediaCollectionServiceTests {
    /// Runs `body` with a started double and client, and always stops both.
    func withService(
        now: @escaping @Sendable () -> Milliseconds = WallClock.now,
        observer: (@Sendable (SimulatedMediaCollectionService.Exchange) -> Void)? = nil,
        _ body: (SimulatedMediaCollectionService, CurlHTTPClient) async throws -> Void
    ) async throws {
        try await withLoopbackService(
            { try await SimulatedMediaCollectionService.start(now: now, observer: observer) }, stop: { await $0.stop() }, body)
    }

    func post(_ url: String, _ body: [UInt8], contentType: String = "application/json") -> HTTPClientRequest {
        HTTPClientRequest(method: .post, url: url, headers: [("Content-Type", contentType)], body: body, maxResponseBytes: 4096)
    }

    func startSession(_ service: SimulatedMediaCollectionService, _ client: CurlHTTPClient, ts: Int64 = 1_764_115_200_000) async throws -> String {
        let response = try await client.send(post(service.endpoint + "/api/v1/sessions", mediaCollectionBody("sessionStart", playhead: "0", ts: String(ts), sessionStartParams())))
        #expect(response.status == 201)
        return try #require(service.sessionIDs().last)
    }

    func send(
        _ service: SimulatedMediaCollectionService, _ client: CurlHTTPClient, _ sessionID: String, _ type: String, ts: Int64, _ members: String = ""
    ) async throws -> HTTPClientResponse {
        try await client.send(post(service.endpoint + "/api/v1/sessions/\(sessionID)/events", mediaCollectionBody(type, ts: String(ts), members)))
    }

    @Test func aSessionAndItsEventsAreTakenAndRecorded() async throws {
        let heard = Recorder<SimulatedMediaCollectionService.Exchange>()
        try await withService(observer: heard.append) { service, client in
            let session = try await startSession(service, client)
            #expect(try await send(service, client, session, "play", ts: 1_764_115_200_001).status == 204)
            #expect(try await send(service, client, session, "adBreakStart", ts: 1_764_115_200_002, #""params": {"media.ad.podIndex": 1, "media.ad.podSecond": 12.5}"#).status == 204)
            #expect(try await send(service, client, session, "sessionEnd", ts: 1_764_115_200_003).status == 204)
            #expect(service.events(of: session).map(\.type) == [.sessionStart, .play, .adBreakStart, .sessionEnd])
            #expect(service.events(of: session)[2].params["media.ad.podSecond"] == .number(12.5))
            #expect(service.events(of: session)[1].playhead == 12.5)
            #expect(service.exchanges().map(\.status) == [201, 204, 204, 204])
            #expect(service.exchanges().map(\.eventType) == ["sessionStart", "play", "adBreakStart", "sessionEnd"])
            #expect(service.exchanges().allSatisfy { $0.sessionID == session && $0.isTaken })
            #expect(heard.all == service.exchanges())
            #expect(service.violations().isEmpty)
        }
    }

    @Test func theSessionIsInTheLocationHeader() async throws {
        try await withService { service, _ in
            // Read the raw answer: the client the reporters use gives status and body only.
            let (status, headers) = try await rawPost(service.endpoint + "/api/v1/sessions", mediaCollectionBody("sessionStart", playhead: "0", sessionStartParams()))
            #expect(status == 201)
            #expect(headers.contains("Location: /api/v1/sessions/\(try #require(service.sessionIDs().first))"))
        }
    }

    @Test func badRequestsAreRefusedWithTheirReasonAndCountAsViolations() async throws {
        try await withService { service, client in
            let session = try await startSession(service, client)
            let badType = try await client.send(post(service.endpoint + "/api/v1/sessions/\(session)/events", mediaCollectionBody("play"), contentType: "text/plain"))
            #expect(badType.status == 400)
            #expect(String(decoding: badType.body, as: UTF8.self).contains("Content-Type must be application/json, not text/plain"))
            #expect(try await send(service, client, session, "adStart", ts: 1_764_115_200_005, #""params": {"media.ad.id": "a", "media.ad.length": 5, "media.ad.podPosition": 1, "media.ad.playerName": "p"}"#).status == 400)
            #expect(try await send(service, client, "made-up", "play", ts: 1_764_115_200_006).status == 404)
            #expect(service.violations().map(\.reason) == [
                "Content-Type must be application/json, not text/plain", "adStart outside an ad break",
                "no session made-up was started: an event before its session's 201, or a made-up id",
            ])
            #expect(service.events(of: session).map(\.type) == [.sessionStart])
        }
    }

    @Test func anEventAfterTheEndIsGone() async throws {
        try await withService { service, client in
            let session = try await startSession(service, client)
            #expect(try await send(service, client, session, "sessionComplete", ts: 1_764_115_200_001).status == 204)
            #expect(try await send(service, client, session, "ping", ts: 1_764_115_200_002).status == 410)
            #expect(service.violations().map(\.status) == [410])
        }
    }

    @Test func toldTo404TheSessionIsForgottenWithoutAViolation() async throws {
        try await withService { service, client in
            let session = try await startSession(service, client)
            service.answer(404, toNext: 1)
            #expect(try await send(service, client, session, "play", ts: 1_764_115_200_001).status == 404)
            #expect(try await send(service, client, session, "ping", ts: 1_764_115_200_002).status == 404)
            let resumed = try await startSession(service, client, ts: 1_764_115_200_003)
            #expect(resumed != session)
            #expect(try await send(service, client, resumed, "play", ts: 1_764_115_200_004).status == 204)
            #expect(service.refusals().map(\.status) == [404, 404])
            #expect(service.violations().isEmpty)
        }
    }

    @Test func anOutageAnswers500UntilItEnds() async throws {
        // The service's clock is the test's: the outage ends when the test says, not when a
        // loaded machine happens to let 300 ms pass between two requests.
        let time = ManualTime(wall: 1_764_115_200_000)
        try await withService(now: { time.wallNow }) { service, client in
            let session = try await startSession(service, client)
            service.answer(500, for: 300, of: .all)
            #expect(try await send(service, client, session, "play", ts: 1_764_115_200_001).status == 500)
            #expect(try await client.send(post(service.endpoint + "/api/v1/sessions", mediaCollectionBody("sessionStart", playhead: "0", sessionStartParams()))).status == 500)
            time.advance(by: 299)
            #expect(try await send(service, client, session, "play", ts: 1_764_115_200_001).status == 500, "still out at 299 ms")
            time.advance(by: 1)
            // The same event again, with its original ts.
            #expect(try await send(service, client, session, "play", ts: 1_764_115_200_001).status == 204)
            #expect(service.violations().isEmpty)
        }
    }

    @Test func refusedConnectionsFailUntilItListensAgain() async throws {
        try await withService { service, client in
            let session = try await startSession(service, client)
            await service.refuseConnections()
            await #expect(throws: HTTPClientError.self) { try await send(service, client, session, "play", ts: 1_764_115_200_001) }
            try await service.acceptConnections()
            #expect(try await send(service, client, session, "play", ts: 1_764_115_200_001).status == 204)
        }
    }

    @Test func aSlowServiceAnswersLate() async throws {
        try await withService { service, client in
            service.answerAfter(.milliseconds(300))
            let response = try await client.send(post(service.endpoint + "/api/v1/sessions", mediaCollectionBody("sessionStart", playhead: "0", sessionStartParams())))
            #expect(response.status == 201)
            #expect(response.latencyMilliseconds >= 300)
        }
    }
}

/// POSTs `body` and returns the status and the header lines: a POST on a connection of its own, answered as the service wrote it (`Location` as sent), made
/// with blocking socket calls on a thread of its own: never on Swift's cooperative pool, whose
/// threads the service's own handlers need to answer. Each call gives up after 10 s.
private func rawPost(_ url: String, _ body: [UInt8]) async throws -> (Int, [String]) {
    let address = try #require(URL(string: url))
    let port = try #require(address.port)
    let head = "POST \(address.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    let request = Array(head.utf8) + body
    let answer = try await onThreadOfItsOwn { () throws(POSIXError) -> [UInt8] in
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw posixError(errno) }
        defer { close(socket) }
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(socket, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        var peer = sockaddr_in()
        peer.sin_family = sa_family_t(AF_INET)
        peer.sin_port = UInt16(port).bigEndian
        peer.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw posixError(errno) }
        guard request.withUnsafeBytes({ Glibc.send(socket, $0.baseAddress, $0.count, 0) }) == request.count else { throw posixError(errno) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 { throw posixError(errno) }
            if count == 0 { return answer }
            answer += buffer[..<count]
        }
    }
    let lines = String(decoding: answer, as: UTF8.self).components(separatedBy: "\r\n")
    let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
    return (status, Array(lines.dropFirst().prefix { !$0.isEmpty }))
}
