/// Decides what becomes of a beacon delivery after one request: delivered, retried later, or given up.
///
/// Retried: no HTTP answer for a reason that may pass (connection refused or reset, DNS, timeout),
/// HTTP 5xx and 429 (waiting at least its `Retry-After`). Given up at once: any other status, a
/// refused URL, a redirect loop or a redirect to another scheme. Given up in any case once the
/// delivery has been due for `maxAge`.
package struct RetryPolicy: Sendable, Equatable {
    package var backoff: Backoff
    /// How long after it became due a delivery is still tried.
    package var maxAge: Milliseconds

    package init(backoff: Backoff = Backoff(), maxAge: Milliseconds = 15 * 60_000) {
        self.backoff = backoff
        self.maxAge = maxAge
    }

    package enum Verdict: Sendable, Equatable {
        case delivered
        /// Try again at this time (an instant of the monotonic clock, as `now`), for this reason.
        case retry(at: Milliseconds, reason: String)
        /// Given up, for this reason.
        case failed(reason: String)
    }

    /// The verdict on `result`, the outcome of request number `delivery.attempts`, at `now` (the
    /// monotonic instant of the delivery's times). `wallNow` is the wall clock at that moment: a
    /// `Retry-After` date is turned into a wait against it, once, and the wait counted from `now`.
    package func verdict(
        on result: RequestResult, of delivery: BeaconDelivery, now: Milliseconds, wallNow: Milliseconds,
        using random: inout some RandomNumberGenerator
    ) -> Verdict {
        let reason: String
        var notBefore: Milliseconds = 0
        switch result.outcome {
        case .notSent:
            return .delivered
        case .answered(let status) where HTTPStatus.isSuccess(status):
            return .delivered
        case .answered(let status) where HTTPStatus.mayPassLater(status):
            reason = "HTTP \(status)"
            notBefore = HTTPStatus.requestedWait(status: status, retryAfter: result.retryAfter, wallNow: wallNow) ?? 0
        case .answered(let status):
            return .failed(reason: "HTTP \(status), not retried")
        case .refused(let refusal):
            return .failed(reason: "refused: \(refusal)")
        case .failed(let error):
            guard Self.mayPass(error) else { return .failed(reason: "\(error), not retried") }
            reason = error.description
        }
        let deadline = delivery.dueAt + maxAge
        guard now < deadline else {
            return .failed(reason: "gave up after \(delivery.attempts) attempts, beacon max age passed; last: \(reason)")
        }
        let wait = max(backoff.delay(forRetry: delivery.attempts, using: &random), notBefore)
        // One last attempt at the deadline rather than none.
        return .retry(at: min(now + wait, deadline), reason: reason)
    }

    /// How late the last attempt, set for the deadline, may still start: its timer fires a little
    /// after the time it was set for (seconds on a loaded box), and expiring the delivery then would
    /// lose that attempt.
    static let lateStart: Milliseconds = 10_000

    /// Due deliveries that became due before this time are given up without a request.
    package func expiryCutoff(now: Milliseconds) -> Milliseconds {
        now - maxAge - Self.lateStart
    }

    /// Whether a request that got no answer for this reason may succeed later.
    static func mayPass(_ error: HTTPClientError) -> Bool {
        switch error {
        case .timedOut, .connectTimedOut, .connectionFailed, .transferFailed, .cancelled: true
        case .unsupportedScheme, .invalidURL, .tooManyRedirects, .responseTooLarge: false
        }
    }
}
