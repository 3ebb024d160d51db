import Synchronization
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// MediaTailor's session init: one JSON POST, relative URLs resolved against the URL that answered.
@Suite(.timeLimit(.minutes(2))) struct MediaTailorSessionInitTests {
    /// Answers every request with `answer`, keeping the requests.
    final class Service: HTTPClient {
        let requests = Mutex<[HTTPClientRequest]>([])
        let answer: @Sendable (HTTPClientRequest) -> HTTPClientResponse

        init(_ answer: @escaping @Sendable (HTTPClientRequest) -> HTTPClientResponse) {
            self.answer = answer
        }

        func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
            requests.withLock { $0.append(request) }
            return answer(request)
        }
    }

    static let initURL = "https://a.example/v1/session/acct/cfg/index.m3u8"
    static let answer = #"{"manifestUrl": "/v1/master/acct/cfg/index.m3u8?aws.sessionId=s9", "trackingUrl": "/v1/tracking/acct/cfg/s9"}"#

    @Test func postsClientReportingWithAdsParamsAndResolvesAgainstTheFinalURL() async throws {
        let service = Service { _ in
            HTTPClientResponse(status: 200, finalURL: "https://b.example/v1/session/acct/cfg/index.m3u8", body: Array(Self.answer.utf8), latencyMilliseconds: 1)
        }
        let endpoints = try await SessionInitializer(client: service, adsParams: ["deviceType": "tv"]).start(mediaURL: Self.initURL)
        #expect(endpoints == SessionEndpoints(
            mediaURL: Self.initURL, manifestURL: "https://b.example/v1/master/acct/cfg/index.m3u8?aws.sessionId=s9",
            trackingURL: "https://b.example/v1/tracking/acct/cfg/s9", sessionID: "s9", dialect: .mediatailor))
        let requests = service.requests.withLock { $0 }
        #expect(requests.count == 1)
        #expect(requests.first?.method == .post)
        #expect(String(decoding: requests.first?.body ?? [], as: UTF8.self) == #"{"adsParams":{"deviceType":"tv"},"reportingMode":"client"}"#)
        #expect(requests.first?.headers.contains { $0.name == "Content-Type" && $0.value == "application/json" } == true)
    }

    @Test func withoutAdsParamsTheBodyAsksForClientReportingOnly() async throws {
        let service = Service { HTTPClientResponse(status: 200, finalURL: $0.url, body: Array(Self.answer.utf8), latencyMilliseconds: 1) }
        _ = try await SessionInitializer(client: service, dialect: .mediatailor).start(mediaURL: "https://a.example/live/index.m3u8")
        #expect(service.requests.withLock { $0.map { String(decoding: $0.body, as: UTF8.self) } } == [#"{"reportingMode":"client"}"#])
    }

    /// Each says why; an answer without a session (not a 5xx) says so too, for the plain fallback.
    @Test(arguments: [
        (500, "", "MediaTailor POST: HTTP 500", false),
        (200, "{}", "MediaTailor POST: HTTP 200 without manifestUrl and trackingUrl", true),
        (200, #"{"manifestUrl": "ftp://x/m", "trackingUrl": "/t"}"#, "the service returned unusable URLs", true),
    ])
    func failuresSayWhy(_ status: Int, _ body: String, _ reason: String, _ answered: Bool) async {
        let service = Service { HTTPClientResponse(status: status, finalURL: $0.url, body: Array(body.utf8), latencyMilliseconds: 1) }
        await #expect(throws: SessionInitError(reason: reason, answeredWithoutSession: answered)) {
            try await SessionInitializer(client: service).start(mediaURL: Self.initURL)
        }
    }

    /// `auto` takes a URL outside `/v1/session/` through Harmonic's init; an answer whose tracking
    /// URL is MediaTailor's makes the session MediaTailor's.
    @Test func autoDecidesFromTheAnswer() async throws {
        let service = Service { HTTPClientResponse(status: 200, finalURL: $0.url, body: Array(Self.answer.utf8), latencyMilliseconds: 1) }
        let endpoints = try await SessionInitializer(client: service).start(mediaURL: "https://a.example/live/index.m3u8")
        #expect(endpoints.dialect == .mediatailor)
        #expect(endpoints.sessionID == "s9")
        #expect(service.requests.withLock { $0.map(\.body) } == [[]])
    }

    /// `harmonic` asked for: a URL under `/v1/session/` still takes Harmonic's init, and needs its `sessid`.
    @Test func harmonicAskedForKeepsHarmonicsInit() async throws {
        let service = Service { HTTPClientResponse(status: 200, finalURL: $0.url, body: Array(Self.answer.utf8), latencyMilliseconds: 1) }
        await #expect(throws: SessionInitError.self) { try await SessionInitializer(client: service, dialect: .harmonic).start(mediaURL: Self.initURL) }
        #expect(service.requests.withLock { $0.allSatisfy(\.body.isEmpty) })
    }
}
