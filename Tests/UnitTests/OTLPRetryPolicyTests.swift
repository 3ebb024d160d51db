import BeaconDomain
import BeaconTesting
import Testing

/// What becomes of an export batch after each request, as OTLP/HTTP says.
@Suite(.timeLimit(.minutes(1))) struct OTLPRetryPolicyTests {
    let policy = OTLPRetryPolicy()
    let now: Milliseconds = 5_000_000
    /// Wed, 21 Oct 2015 07:28:00 GMT.
    let wallNow: Milliseconds = 1_445_412_480_000

    func verdict(
        _ result: Result<HTTPClientResponse, HTTPClientError>, signal: OTLPSignal = .logs, attempts: Int = 1, seed: UInt64 = 1
    ) -> OTLPRetryPolicy.Verdict {
        var random = SeededGenerator(seed: seed)
        return policy.verdict(on: result, of: signal, attempts: attempts, now: now, wallNow: wallNow, using: &random)
    }

    static func answer(_ status: Int, body: String = "", retryAfter: String? = nil) -> Result<HTTPClientResponse, HTTPClientError> {
        let url = "http://127.0.0.1:4318/v1/logs"
        return .success(
            HTTPClientResponse(status: status, finalURL: url, body: Array(body.utf8), latencyMilliseconds: 3, retryAfter: retryAfter))
    }

    /// The instant of a retry verdict, nil for any other.
    func retryInstant(_ verdict: OTLPRetryPolicy.Verdict) -> Milliseconds? {
        if case .retry(let at, _) = verdict { return at }
        return nil
    }

    @Test func aSuccessIsAcceptedWithWhatTheCollectorRejected() {
        #expect(verdict(Self.answer(200)) == .accepted(rejected: 0, message: nil))
        #expect(verdict(Self.answer(204, body: "{}")) == .accepted(rejected: 0, message: nil))
        #expect(verdict(Self.answer(200, body: #"{"partialSuccess":{"rejectedLogRecords":"2","errorMessage":"too big"}}"#))
            == .accepted(rejected: 2, message: "too big"))
        #expect(verdict(Self.answer(200, body: #"{"partialSuccess":{"rejectedDataPoints":3}}"#), signal: .metrics)
            == .accepted(rejected: 3, message: nil))
        #expect(verdict(Self.answer(202, body: "garbage")) == .accepted(rejected: 0, message: nil))
    }

    @Test(arguments: [429, 502, 503, 504])
    func theRetryableStatusesAreRetriedWithBackoff(status: Int) throws {
        let verdict = verdict(Self.answer(status))
        guard case .retry(let at, let reason) = verdict else {
            Issue.record("HTTP \(status): \(verdict)")
            return
        }
        #expect(reason == "HTTP \(status)")
        #expect((now...now + 1000).contains(at))
    }

    @Test(arguments: [400, 401, 403, 404, 405, 408, 409, 413, 415, 500, 501, 505, 507, 302, 100])
    func everyOtherStatusDropsTheBatch(status: Int) {
        #expect(verdict(Self.answer(status, retryAfter: "5")) == .dropped(reason: "HTTP \(status), not retried"))
    }

    @Test func aDroppedBatchSaysWhatTheCollectorSaid() {
        #expect(verdict(Self.answer(400, body: #"{"code":3,"message":"unknown field \"foo\""}"#))
            == .dropped(reason: #"HTTP 400, not retried: unknown field "foo""#))
    }

    @Test(arguments: [
        HTTPClientError.timedOut, .connectTimedOut, .connectionFailed("refused"), .transferFailed("reset"), .cancelled,
        .tooManyRedirects, .responseTooLarge(limit: 65_536), .invalidURL("::"), .unsupportedScheme("ftp"),
    ])
    func everyRequestWithNoAnswerIsRetried(error: HTTPClientError) {
        let verdict = verdict(.failure(error))
        #expect(verdict == .retry(at: retryInstant(verdict) ?? -1, reason: error.description))
        #expect((now...now + 1000).contains(retryInstant(verdict) ?? -1))
    }

    @Test func retryAfterInSecondsIsHonoured() {
        #expect(retryInstant(verdict(Self.answer(503, retryAfter: "120"))) == now + 120_000)
        #expect(retryInstant(verdict(Self.answer(429, retryAfter: " 7 "))) == now + 7_000)
    }

    @Test func retryAfterAsADateIsCountedOnTheWallClockFromNow() {
        #expect(retryInstant(verdict(Self.answer(503, retryAfter: "Wed, 21 Oct 2015 07:28:30 GMT"))) == now + 30_000)
        // A date already past asks for nothing: the backoff alone decides.
        let past = retryInstant(verdict(Self.answer(503, retryAfter: "Wed, 21 Oct 2015 07:27:00 GMT")))
        #expect((now...now + 1000).contains(past ?? -1))
    }

    @Test func aLongRetryAfterIsBoundedToFiveMinutes() {
        #expect(retryInstant(verdict(Self.answer(429, retryAfter: "3600"))) == now + 300_000)
        #expect(retryInstant(verdict(Self.answer(503, retryAfter: "Thu, 22 Oct 2015 07:28:00 GMT"))) == now + 300_000)
    }

    @Test func anUnreadableRetryAfterLeavesTheBackoff() {
        let at = retryInstant(verdict(Self.answer(503, retryAfter: "soon")))
        #expect((now...now + 1000).contains(at ?? -1))
    }

    @Test func theLongerOfTheBackoffAndRetryAfterWins() {
        // On the 7th retry the backoff draws up to 60 s: a Retry-After of 1 s is a floor, not the wait.
        let waits = (1...200).compactMap { seed in
            retryInstant(verdict(Self.answer(503, retryAfter: "1"), attempts: 7, seed: seed)).map { $0 - now }
        }
        #expect(waits.count == 200)
        #expect(waits.allSatisfy { (1000...60_000).contains($0) })
        #expect(waits.contains { $0 > 30_000 })
    }

    @Test func theBackoffGrowsWithEachRetryUpToItsCap() {
        for attempts in 1...8 {
            let ceiling = policy.backoff.ceiling(forRetry: attempts)
            let waits = (1...300).compactMap { seed in
                retryInstant(verdict(.failure(.connectTimedOut), attempts: attempts, seed: seed)).map { $0 - now }
            }
            #expect(waits.count == 300)
            // Full jitter: anywhere from nothing to the ceiling, spread over it.
            #expect(waits.allSatisfy { (0...ceiling).contains($0) }, "retry \(attempts)")
            #expect(waits.contains { $0 < ceiling / 4 } && waits.contains { $0 > ceiling * 3 / 4 }, "retry \(attempts)")
        }
        #expect((1...8).map(policy.backoff.ceiling(forRetry:)) == [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000])
    }

    @Test func theSameSeedDrawsTheSameWait() {
        #expect(verdict(Self.answer(502), attempts: 4, seed: 42) == verdict(Self.answer(502), attempts: 4, seed: 42))
        let instants = Set((1...20).compactMap { retryInstant(verdict(Self.answer(502), attempts: 4, seed: $0)) })
        #expect(instants.count > 10)
    }

    @Test func aBatchIsDroppedAfterItsLastRetry() {
        #expect(retryInstant(verdict(Self.answer(503), attempts: policy.maxRetries)) != nil)
        #expect(verdict(Self.answer(503), attempts: policy.maxRetries + 1) == .dropped(reason: "gave up after 9 attempts; last: HTTP 503"))
        #expect(verdict(.failure(.timedOut), attempts: 12) == .dropped(reason: "gave up after 12 attempts; last: timed out"))
        // A success is a success however late.
        #expect(verdict(Self.answer(200), attempts: 50) == .accepted(rejected: 0, message: nil))
    }

    @Test func noRetriesDropsAtTheFirstFailure() {
        let policy = OTLPRetryPolicy(maxRetries: 0)
        var random = SeededGenerator(seed: 3)
        #expect(policy.verdict(on: Self.answer(429), of: .metrics, attempts: 1, now: now, wallNow: wallNow, using: &random)
            == .dropped(reason: "gave up after 1 attempt; last: HTTP 429"))
    }

    @Test func onlyTheProtocolsRetryableStatusesAreRetryable() {
        #expect((100..<600).filter(OTLPRetryPolicy.isRetryable) == [429, 502, 503, 504])
    }
}
