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

    // MARK: SGAI

    static let sgaiAnswer = #"{"manifestUrl": "/v1/master/acct/cfg/index.m3u8?aws.sessionId=s9"}"#

    /// AWS's forms: `aws.reportingMode=CLIENT` in the request's query (sgai-ad-tracking.html), and
    /// the explicit POST's body keys `reportingMode` and `insertionMode` (explicit session
    /// initialization, server-guided.html). No tracking URL; the session id is `aws.sessionId`.
    @Test func sgaiAsksForClientReportingOfAGuidedSessionAndTakesItsIDFromTheManifest() async throws {
        let service = Service { _ in
            HTTPClientResponse(status: 200, finalURL: "https://b.example/v1/session/acct/cfg/index.m3u8", body: Array(Self.sgaiAnswer.utf8), latencyMilliseconds: 1)
        }
        let endpoints = try await SessionInitializer(client: service, adsParams: ["deviceType": "tv"], sgai: true).start(mediaURL: Self.initURL)
        #expect(endpoints == SessionEndpoints(
            mediaURL: Self.initURL, manifestURL: "https://b.example/v1/master/acct/cfg/index.m3u8?aws.sessionId=s9",
            trackingURL: "", sessionID: "s9", dialect: .mediatailor, isSGAI: true))
        #expect(!endpoints.pollsMetadata)
        let requests = service.requests.withLock { $0 }
        #expect(requests.map(\.method) == [.post])
        #expect(requests.first?.url == Self.initURL + "?aws.reportingMode=CLIENT")
        #expect(
            String(decoding: requests.first?.body ?? [], as: UTF8.self)
                == #"{"adsParams":{"deviceType":"tv"},"insertionMode":"GUIDED","reportingMode":"client"}"#)
    }

    /// The media URL's own query is kept; `auto` takes MediaTailor's init for an SGAI session whatever the URL.
    @Test func sgaiKeepsTheQueryAndMakesAutoMediaTailors() async throws {
        let service = Service { HTTPClientResponse(status: 200, finalURL: $0.url, body: Array(Self.sgaiAnswer.utf8), latencyMilliseconds: 1) }
        let endpoints = try await SessionInitializer(client: service, sgai: true).start(mediaURL: "https://a.example/live/index.m3u8?x=1")
        #expect(endpoints.isSGAI && endpoints.dialect == .mediatailor)
        #expect(service.requests.withLock { $0.map(\.url) } == ["https://a.example/live/index.m3u8?x=1&aws.reportingMode=CLIENT"])
        #expect(service.requests.withLock { $0.map { String(decoding: $0.body, as: UTF8.self) } } == [#"{"insertionMode":"GUIDED","reportingMode":"client"}"#])
    }

    /// MediaTailor's GetTracking is not used for SGAI sessions: a tracking URL in the answer is not polled.
    @Test func sgaiPollsNoTrackingURLEvenWhenTheAnswerNamesOne() async throws {
        let service = Service { HTTPClientResponse(status: 200, finalURL: $0.url, body: Array(Self.answer.utf8), latencyMilliseconds: 1) }
        let endpoints = try await SessionInitializer(client: service, dialect: .mediatailor, sgai: true).start(mediaURL: Self.initURL)
        #expect(endpoints.trackingURL == "")
        #expect(endpoints.sessionID == "s9")
        #expect(!endpoints.pollsMetadata)
    }

    /// An SGAI answer needs its manifest URL; one without `aws.sessionId` leaves the session without an id.
    @Test func sgaiAnswersWithoutAManifestFailAndWithoutASessionIDHaveNone() async throws {
        let empty = Service { HTTPClientResponse(status: 200, finalURL: $0.url, body: Array("{}".utf8), latencyMilliseconds: 1) }
        await #expect(throws: SessionInitError(reason: "MediaTailor POST: HTTP 200 without manifestUrl", answeredWithoutSession: true)) {
            try await SessionInitializer(client: empty, sgai: true).start(mediaURL: Self.initURL)
        }
        let unusable = Service { HTTPClientResponse(status: 200, finalURL: $0.url, body: Array(#"{"manifestUrl": "ftp://x/m"}"#.utf8), latencyMilliseconds: 1) }
        await #expect(throws: SessionInitError(reason: "the service returned unusable URLs", answeredWithoutSession: true)) {
            try await SessionInitializer(client: unusable, sgai: true).start(mediaURL: Self.initURL)
        }
        let anonymous = Service { HTTPClientResponse(status: 200, finalURL: $0.url, body: Array(#"{"manifestUrl": "/m.m3u8"}"#.utf8), latencyMilliseconds: 1) }
        #expect(try await SessionInitializer(client: anonymous, sgai: true).start(mediaURL: Self.initURL).sessionID == nil)
    }

    /// Without SGAI, an answer without `trackingUrl` is refused as before.
    @Test func withoutSGAIAnAnswerWithoutATrackingURLIsRefused() async {
        let service = Service { HTTPClientResponse(status: 200, finalURL: $0.url, body: Array(Self.sgaiAnswer.utf8), latencyMilliseconds: 1) }
        await #expect(throws: SessionInitError(reason: "MediaTailor POST: HTTP 200 without manifestUrl and trackingUrl", answeredWithoutSession: true)) {
            try await SessionInitializer(client: service).start(mediaURL: Self.initURL)
        }
        #expect(service.requests.withLock { $0.map(\.url) } == [Self.initURL])
    }

    /// `harmonic` asked for: SGAI is MediaTailor's, so Harmonic's init goes as it always did.
    @Test func sgaiWithHarmonicAskedForKeepsHarmonicsInit() async throws {
        let harmonic = #"{"manifestUrl": "/v/index.m3u8?sessid=h1", "trackingUrl": "/v/metadata?sessid=h1"}"#
        let service = Service { HTTPClientResponse(status: 200, finalURL: $0.url, body: Array(harmonic.utf8), latencyMilliseconds: 1) }
        let endpoints = try await SessionInitializer(client: service, dialect: .harmonic, sgai: true).start(mediaURL: "https://a.example/live/index.m3u8")
        #expect(endpoints.dialect == .harmonic && !endpoints.isSGAI && endpoints.pollsMetadata)
        #expect(service.requests.withLock { $0.map(\.url) } == ["https://a.example/live/index.m3u8"])
    }
}
