import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct RetryPolicyTests {
    let policy = RetryPolicy(backoff: Backoff(base: 1000, cap: 60_000), maxAge: 15 * 60_000)
    let dueAt: Milliseconds = 1_700_000_000_000
    let url = "http://ads.example/beacon?cn=impression"

    /// A delivery whose request number `attempts` just ended.
    func delivery(attempts: Int = 1) -> BeaconDelivery {
        let key = BeaconDelivery.Key(
            sessionKey: "s", adBreakID: "p", adID: "a", event: .impression, eventStart: 0, url: url, occurrence: 0)
        return BeaconDelivery(
            key: key, reference: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0), state: .inFlight, attempts: attempts, dueAt: dueAt)
    }

    func verdict(
        _ outcome: RequestResult.Outcome, retryAfter: String? = nil, attempts: Int = 1, now: Milliseconds? = nil,
        wallNow: Milliseconds? = nil, seed: UInt64 = 1
    ) -> RetryPolicy.Verdict {
        var random = SeededGenerator(seed: seed)
        let result = RequestResult(url: url, outcome: outcome, latencyMilliseconds: 5, retryAfter: retryAfter)
        return policy.verdict(on: result, of: delivery(attempts: attempts), now: now ?? dueAt + 100, wallNow: wallNow ?? now ?? dueAt + 100, using: &random)
    }

    /// The wait after `now` of a retry verdict, nil for any other verdict.
    func wait(of verdict: RetryPolicy.Verdict, now: Milliseconds) -> Milliseconds? {
        guard case .retry(let time, _) = verdict else { return nil }
        return time - now
    }

    @Test func every2xxIsDelivered() {
        for status in 200..<300 {
            #expect(verdict(.answered(status: status)) == .delivered, "HTTP \(status)")
        }
    }

    @Test func aQuietDaemonsUnsentBeaconIsDelivered() {
        #expect(verdict(.notSent(.quiet)) == .delivered)
    }

    @Test func http429AndEvery5xxAreRetriedWithTheStatusAsReason() {
        for status in [429] + Array(500..<600) {
            guard case .retry(let time, let reason) = verdict(.answered(status: status)) else {
                Issue.record("HTTP \(status) was not retried")
                continue
            }
            #expect(reason == "HTTP \(status)")
            #expect(time >= dueAt + 100)
        }
    }

    @Test func everyOtherStatusFailsAtOnceWithTheStatusInTheReason() {
        let others = Array(100..<200) + Array(300..<429) + Array(430..<500) + [600, 999]
        for status in others {
            guard case .failed(let reason) = verdict(.answered(status: status)) else {
                Issue.record("HTTP \(status) did not fail at once")
                continue
            }
            #expect(reason.contains("HTTP \(status)"), "\(reason)")
        }
    }

    @Test func aRefusedURLFailsAtOnceWithTheRefusal() {
        guard case .failed(let reason) = verdict(.refused("scheme 'ftp' is not http or https")) else {
            Issue.record("a refused URL did not fail")
            return
        }
        #expect(reason.contains("scheme 'ftp' is not http or https"))
    }

    @Test(arguments: [HTTPClientError.timedOut, .connectTimedOut, .connectionFailed("Connection refused"), .transferFailed("reset"), .cancelled])
    func errorsThatMayPassAreRetried(error: HTTPClientError) {
        guard case .retry(_, let reason) = verdict(.failed(error)) else {
            Issue.record("\(error) was not retried")
            return
        }
        #expect(reason == error.description)
    }

    @Test(arguments: [
        HTTPClientError.unsupportedScheme("file"), .invalidURL("http://["), .tooManyRedirects, .responseTooLarge(limit: 0),
    ])
    func errorsThatCannotPassFailAtOnce(error: HTTPClientError) {
        guard case .failed(let reason) = verdict(.failed(error)) else {
            Issue.record("\(error) did not fail at once")
            return
        }
        #expect(reason.contains(error.description))
    }

    @Test func theWaitIsTheBackoffDrawForThisRetry() {
        let now = dueAt + 100
        for attempts in 1...10 {
            for seed in UInt64(1)...20 {
                var same = SeededGenerator(seed: seed)
                let expected = policy.backoff.delay(forRetry: attempts, using: &same)
                let drawn = wait(of: verdict(.answered(status: 503), attempts: attempts, now: now, seed: seed), now: now)
                #expect(drawn == expected, "attempt \(attempts), seed \(seed)")
            }
        }
    }

    @Test func theWaitIsFullyJitteredUpToTheCeiling() {
        let now = dueAt + 100
        for attempts in 1...8 {
            let ceiling = policy.backoff.ceiling(forRetry: attempts)
            let waits = (UInt64(1)...200).compactMap { wait(of: verdict(.failed(.timedOut), attempts: attempts, now: now, seed: $0), now: now) }
            #expect(waits.count == 200)
            #expect(waits.allSatisfy { (0...ceiling).contains($0) })
            #expect(waits.contains { $0 < ceiling / 4 }, "attempt \(attempts): no short wait")
            #expect(waits.contains { $0 > ceiling * 3 / 4 }, "attempt \(attempts): no long wait")
        }
    }

    @Test func aRetryAfterThatDoesNotParseLeavesTheBackoffAlone() {
        let now = dueAt + 100
        for seed in UInt64(1)...20 {
            let plain = verdict(.answered(status: 503), now: now, seed: seed)
            #expect(verdict(.answered(status: 503), retryAfter: "soon, perhaps", now: now, seed: seed) == plain)
            #expect(verdict(.answered(status: 429), retryAfter: "", now: now, seed: seed) == verdict(.answered(status: 429), now: now, seed: seed))
        }
    }

    @Test func aRetryAfterDateIsAWaitAgainstTheWallClockCountedFromTheMonotonicNow() {
        // Wed, 21 Oct 2015 07:28:00 GMT, a minute after the wall clock; `now` is an instant of
        // the monotonic clock, unrelated to any date.
        let date = "Wed, 21 Oct 2015 07:28:00 GMT"
        let wallNow: Milliseconds = 1_445_412_480_000 - 60_000
        let now = dueAt + 100
        #expect(wait(of: verdict(.answered(status: 503), retryAfter: date, now: now, wallNow: wallNow), now: now) == 60_000)
        // The wall clock an hour ahead: the date is past, only the backoff is left.
        let stepped = verdict(.answered(status: 503), retryAfter: date, now: now, wallNow: wallNow + 3_600_000)
        #expect(stepped == verdict(.answered(status: 503), now: now))
    }

    @Test func theWallClockChangesNoRetryTimeAndNoDeadline() {
        for step: Milliseconds in [-3_600_000, 3_600_000] {
            for now in [dueAt + 100, dueAt + 15 * 60_000 - 1, dueAt + 15 * 60_000] {
                for outcome: RequestResult.Outcome in [.answered(status: 503), .failed(.timedOut)] {
                    #expect(verdict(outcome, retryAfter: "5", now: now, wallNow: now + step) == verdict(outcome, retryAfter: "5", now: now))
                }
            }
        }
    }

    @Test func aRetryAfterIsALowerBoundOnTheWaitButNotPastTheDeadline() {
        // Far above the first retry's backoff ceiling of 1 s: the wait is the Retry-After.
        let now = dueAt + 100
        #expect(wait(of: verdict(.answered(status: 503), retryAfter: "120", now: now), now: now) == 120_000)
        #expect(wait(of: verdict(.answered(status: 429), retryAfter: "120", now: now), now: now) == 120_000)
        // Past the deadline, the last attempt stays at the deadline.
        let nearDeadline = dueAt + policy.maxAge - 60_000
        let capped = verdict(.answered(status: 503), retryAfter: "120", now: nearDeadline)
        #expect(wait(of: capped, now: nearDeadline) == 60_000)
    }

    @Test func afterTheMaxAgeARetryableFailureGivesUpWithTheLastError() {
        let deadline = dueAt + policy.maxAge
        for now in [deadline, deadline + 1, deadline + 3_600_000] {
            guard case .failed(let reason) = verdict(.answered(status: 503), attempts: 7, now: now) else {
                Issue.record("a 503 at \(now - deadline) ms past the deadline was retried")
                continue
            }
            #expect(reason.contains("max age"), "\(reason)")
            #expect(reason.contains("HTTP 503"), "\(reason)")
            #expect(reason.contains("7 attempts"), "\(reason)")
        }
        guard case .failed(let reason) = verdict(.failed(.timedOut), now: deadline) else {
            Issue.record("a time-out at the deadline was retried")
            return
        }
        #expect(reason.contains("max age") && reason.contains("timed out"), "\(reason)")
    }

    @Test func pastTheMaxAgeASuccessIsStillDeliveredAndA404StillSaysItsStatus() {
        let late = dueAt + policy.maxAge + 1
        #expect(verdict(.answered(status: 204), now: late) == .delivered)
        guard case .failed(let reason) = verdict(.answered(status: 404), now: late) else {
            Issue.record("a late 404 was not failed")
            return
        }
        #expect(reason.contains("HTTP 404"))
    }

    @Test func theLastRetryIsScheduledNoLaterThanTheDeadline() {
        let deadline = dueAt + policy.maxAge
        var sawCapped = false
        for offset: Milliseconds in [policy.maxAge - 1, policy.maxAge - 500, policy.maxAge - 30_000, policy.maxAge - 59_999, 0, 1] {
            let now = dueAt + offset
            for attempts in [1, 5, 20] {
                for seed in UInt64(1)...30 {
                    guard case .retry(let time, _) = verdict(.failed(.connectionFailed("reset")), attempts: attempts, now: now, seed: seed) else {
                        Issue.record("no retry before the deadline")
                        continue
                    }
                    #expect(time >= now)
                    #expect(time <= deadline)
                    if time == deadline { sawCapped = true }
                }
            }
        }
        #expect(sawCapped, "a wait that would pass the deadline is moved to it")
    }

    /// The retry set for the deadline is not expired by a sweep whose timer fired a little late;
    /// a delivery still due well past its deadline is.
    @Test func theLastAttemptAtTheDeadlineOutlivesASlightlyLateSweep() throws {
        let deadline = dueAt + policy.maxAge
        var queue = DeliveryQueue()
        queue.add(delivery(attempts: 0))
        _ = queue.start(now: dueAt)
        var random = SeededGenerator(seed: 1)
        let result = RequestResult(url: url, outcome: .answered(status: 503), latencyMilliseconds: 5)
        let now = deadline - 100
        let inFlight = try #require(queue.deliveries[delivery().key])
        let verdict = policy.verdict(on: result, of: inFlight, now: now, wallNow: now, using: &random)
        #expect(verdict == .retry(at: deadline, reason: "HTTP 503"))
        _ = queue.finish(delivery().key, verdict: verdict, result: result, now: now)

        let late = deadline + 50
        #expect(queue.expire(dueBefore: policy.expiryCutoff(now: late), now: late, reason: "too old").isEmpty)
        #expect(queue.start(now: late).count == 1)

        var stale = DeliveryQueue()
        stale.add(delivery(attempts: 0))
        let muchLater = deadline + RetryPolicy.lateStart + 1
        #expect(stale.expire(dueBefore: policy.expiryCutoff(now: muchLater), now: muchLater, reason: "too old").count == 1)
    }
}
