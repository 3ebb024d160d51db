import Testing
@testable import BeaconDomain

/// The metadata refresh policy: what each answer means, which page comes next, and when the next
/// refresh is due; at given instants, with a generator that draws the ceiling.
@Suite(.timeLimit(.minutes(2))) struct MetadataRefreshTests {
    typealias Highest = RetryScheduleTests.Highest
    static let trackingURL = "http://ads.example/metadata?sessid=s1"
    static let now: Milliseconds = 1_000_000
    static let wallNow = Fixture.t0

    static let harmonic: [UInt8] = {
        let t0 = Fixture.t0
        let event = TrackingEvent(event: .impression, startTime: t0, duration: 30_000, signalingURLs: ["http://ads.example/beacon"])
        let adBreak = AdBreak(id: "p", startTime: t0, duration: 30_000, ads: [Ad(id: "a", startTime: t0, duration: 30_000, trackingEvents: [event])])
        return Array(MetadataDocument(dataRange: DataRange(start: t0 - 600_000, end: t0 + 30_000), adBreaks: [adBreak]).encodedJSON().utf8)
    }()

    /// A MediaTailor page with these avails (60 s apart) and this `nextToken`.
    static func page(_ avails: [String], next: String?) -> [UInt8] {
        let listed = avails.enumerated().map { index, id in
            #"{"availId": "\#(id)", "startTimeInSeconds": \#(60 * (index + 1)), "durationInSeconds": 30, "#
                + #""adBreakTrackingEvents": [{"eventType": "breakStart", "beaconUrls": ["http://ads.example/bs"]}]}"#
        }
        let token = next.map { #", "nextToken": "\#($0)""# } ?? ""
        return Array(#"{"avails": [\#(listed.joined(separator: ", "))]\#(token)}"#.utf8)
    }

    static func answer(_ body: [UInt8], status: Int = 200, retryAfter: String? = nil) -> Result<HTTPClientResponse, HTTPClientError> {
        .success(HTTPClientResponse(status: status, finalURL: trackingURL, body: body, latencyMilliseconds: 1, retryAfter: retryAfter))
    }

    /// One refresh answered by `answers` in order: the URLs requested and what it came to.
    static func refresh(
        _ refresh: inout MetadataRefresh, dialect: Dialect? = .harmonic, _ answers: [Result<HTTPClientResponse, HTTPClientError>]
    ) -> (urls: [String], outcome: MetadataRound.Outcome?, round: MetadataRound) {
        var round = refresh.begin(trackingURL: trackingURL, dialect: dialect)
        var urls = [round.url]
        var outcome: MetadataRound.Outcome?
        for answer in answers {
            switch round.received(answer, wallNow: wallNow) {
            case .request(let url): urls.append(url)
            case .finished(let finished): outcome = finished
            }
            if outcome != nil { break }
        }
        refresh.remember(round)
        return (urls, outcome, round)
    }

    @Test func failuresInARowWaitLongerAndASuccessGoesBackToTheInterval() {
        var refresh = MetadataRefresh(interval: 2_000)
        var random = Highest()
        var now = Self.now
        for wait in [2_000, 2_000, 4_000, 8_000, 16_000] as [Milliseconds] {
            #expect(refresh.failed(requestedWait: nil, now: now, using: &random) == now + wait)
            #expect(refresh.nextRefreshAt == now + wait)
            now += wait
        }
        #expect(refresh.schedule.consecutiveFailures == 5)
        #expect(refresh.succeeded(now: now, wallNow: Self.wallNow) == now + 2_000)
        #expect(refresh.schedule.consecutiveFailures == 0 && refresh.lastRefreshedAt == Self.wallNow)
        #expect(refresh.failed(requestedWait: nil, now: now, using: &random) == now + 2_000, "the count started again")
        _ = refresh.begin(trackingURL: Self.trackingURL, dialect: .harmonic)
        #expect(refresh.nextRefreshAt == nil, "a refresh under way has no due time")
    }

    @Test func retryAfterIsHonouredAndBoundedToTenMinutes() {
        var refresh = MetadataRefresh(interval: 2_000)
        var random = Highest()
        let asked = Self.refresh(&refresh, [Self.answer([], status: 503, retryAfter: "120")])
        #expect(asked.outcome == .failed(reason: "HTTP 503 (Retry-After 2m00s)", requestedWait: 120_000))
        #expect(refresh.failed(requestedWait: 120_000, now: Self.now, using: &random) == Self.now + 120_000)

        let long = Self.refresh(&refresh, [Self.answer([], status: 429, retryAfter: "86400")])
        guard case .failed(_, let requested?)? = long.outcome else { Issue.record("\(String(describing: long.outcome))"); return }
        #expect(refresh.failed(requestedWait: requested, now: Self.now, using: &random) == Self.now + 600_000)

        let notFound = Self.refresh(&refresh, [Self.answer([], status: 404, retryAfter: "120")])
        #expect(notFound.outcome == .failed(reason: "HTTP 404", requestedWait: nil), "only 429 and 5xx may ask to wait")
    }

    @Test func aRequestThatGotNoAnswerFailsWithItsReasonAndACancelledOneEndsTheRefresh() {
        var refresh = MetadataRefresh(interval: 2_000)
        #expect(Self.refresh(&refresh, [.failure(.timedOut)]).outcome == .failed(reason: "timed out", requestedWait: nil))
        #expect(Self.refresh(&refresh, [.failure(.cancelled)]).outcome == .cancelled)
    }

    @Test func anUnchangedBodyIsNotDecodedAgain() throws {
        var refresh = MetadataRefresh(interval: 2_000)
        let first = Self.refresh(&refresh, [Self.answer(Self.harmonic)])
        guard case .document(let document, let bytes)? = first.outcome else { Issue.record("\(String(describing: first.outcome))"); return }
        #expect(document.adBreaks.map(\.id) == ["p"] && bytes == Self.harmonic.count)
        #expect(Self.refresh(&refresh, [Self.answer(Self.harmonic)]).outcome == .unchanged(bytes: Self.harmonic.count))
        let rejected = Self.refresh(&refresh, [Self.answer(Array("not json".utf8))])
        guard case .failed(let reason, nil)? = rejected.outcome else { Issue.record("\(String(describing: rejected.outcome))"); return }
        #expect(reason.hasPrefix("rejected: "))
        #expect(Self.refresh(&refresh, [Self.answer(Self.harmonic)]).outcome == .unchanged(bytes: Self.harmonic.count), "a rejected body is not remembered")
    }

    @Test func theFirstDocumentDecidesTheDialect() {
        var refresh = MetadataRefresh(interval: 2_000)
        #expect(Self.refresh(&refresh, dialect: nil, [Self.answer(Self.harmonic)]).round.dialect == .harmonic)
        let mediaTailor = Self.refresh(&refresh, dialect: nil, [Self.answer(Self.page(["b1"], next: nil))])
        #expect(mediaTailor.round.dialect == .mediatailor)
        #expect(mediaTailor.round.firstAnswer?.status == 200)
    }

    @Test func mediaTailorPagingStopsOnAPageWithNoNewAvail() {
        var refresh = MetadataRefresh(interval: 2_000)
        let result = Self.refresh(&refresh, dialect: .mediatailor, [
            Self.answer(Self.page(["b1"], next: "t1")), Self.answer(Self.page(["b1"], next: "t2")), Self.answer(Self.page(["b3"], next: "t3")),
        ])
        #expect(result.urls == [Self.trackingURL, SessionEndpoints.page(Self.trackingURL, nextToken: "t1")])
        guard case .document(let document, _)? = result.outcome else { Issue.record("\(String(describing: result.outcome))"); return }
        #expect(document.adBreaks.map(\.id) == ["b1"])
        #expect(refresh.nextToken == "t2", "the next refresh starts from the last token")
        #expect(Self.refresh(&refresh, dialect: .mediatailor, []).urls == [SessionEndpoints.page(Self.trackingURL, nextToken: "t2")])
    }

    @Test func mediaTailorPagingStopsOnAPageWithoutAToken() {
        var refresh = MetadataRefresh(interval: 2_000)
        let result = Self.refresh(&refresh, dialect: .mediatailor, [
            Self.answer(Self.page(["b1"], next: "t1")), Self.answer(Self.page(["b2"], next: nil)), Self.answer(Self.page(["b3"], next: nil)),
        ])
        #expect(result.urls.count == 2)
        guard case .document(let document, _)? = result.outcome else { Issue.record("\(String(describing: result.outcome))"); return }
        #expect(document.adBreaks.map(\.id) == ["b1", "b2"])
        #expect(refresh.nextToken == "t1", "a page without a token keeps the last one")
    }

    @Test func mediaTailorPagingStopsOnTheSameToken() {
        var refresh = MetadataRefresh(interval: 2_000)
        let result = Self.refresh(&refresh, dialect: .mediatailor, [
            Self.answer(Self.page(["b1"], next: "t1")), Self.answer(Self.page(["b2"], next: "t1")), Self.answer(Self.page(["b3"], next: "t9")),
        ])
        #expect(result.urls.count == 2)
        guard case .document(let document, _)? = result.outcome else { Issue.record("\(String(describing: result.outcome))"); return }
        #expect(document.adBreaks.map(\.id) == ["b1", "b2"])
    }

    @Test func mediaTailorPagingStopsAtTwentyPages() {
        var refresh = MetadataRefresh(interval: 2_000)
        let answers = (1...30).map { Self.answer(Self.page(["b\($0)"], next: "t\($0)")) }
        let result = Self.refresh(&refresh, dialect: .mediatailor, answers)
        #expect(result.urls.count == MetadataRound.maxMediaTailorPages)
        guard case .document(let document, _)? = result.outcome else { Issue.record("\(String(describing: result.outcome))"); return }
        #expect(document.adBreaks.count == 20)
        #expect(refresh.nextToken == "t20")
    }

    @Test func aMediaTailorPageThatFailsFailsTheRefreshAndKeepsTheToken() {
        var refresh = MetadataRefresh(interval: 2_000)
        let result = Self.refresh(&refresh, dialect: .mediatailor, [Self.answer(Self.page(["b1"], next: "t1")), Self.answer([], status: 503, retryAfter: "60")])
        #expect(result.outcome == .failed(reason: "HTTP 503 (nextToken page)", requestedWait: nil))
        #expect(refresh.nextToken == nil)
    }

    @Test func aMediaTailorRefreshWithNoAvailLeavesWhatIsKnown() {
        var refresh = MetadataRefresh(interval: 2_000)
        let page = Self.page([], next: "t1")
        #expect(Self.refresh(&refresh, dialect: .mediatailor, [Self.answer(page)]).outcome == .unchanged(bytes: page.count))
        #expect(refresh.nextToken == "t1")
    }
}
