/// What becomes of one export batch after a request, as OTLP/HTTP says: accepted, sent again
/// later, or dropped.
///
/// Accepted: any 2xx, with what its body says the collector rejected (a partial success is not
/// retried). Retried: 429, 502, 503 and 504, the statuses the protocol names as retryable, and
/// every request that got no answer. The wait is a ``Backoff`` draw (exponential, full jitter) or
/// what the answer's `Retry-After` asks, whichever is longer: never less than the collector asked
/// (up to `longestRequestedWait`), and repeated throttling still backs off. Dropped: every other
/// status (a 400 above all: the collector will never take this batch), and a batch still failing
/// after `maxRetries` retries.
package struct OTLPRetryPolicy: Sendable, Equatable {
    package var backoff: Backoff
    /// The longest `Retry-After` honoured: a collector must not be able to silence the daemon for hours.
    package var longestRequestedWait: Milliseconds
    /// The retries a batch gets before it is dropped.
    package var maxRetries: Int

    /// Defaults: waits drawn up to 1 s, 2 s, 4 s... and 1 minute at most, `Retry-After` honoured up
    /// to 5 minutes, 8 retries (at most some 3 minutes of backoff before a batch is dropped).
    package init(backoff: Backoff = Backoff(base: 1000, cap: 60_000), longestRequestedWait: Milliseconds = 300_000, maxRetries: Int = 8) {
        self.backoff = backoff
        self.longestRequestedWait = max(longestRequestedWait, 0)
        self.maxRetries = max(maxRetries, 0)
    }

    package enum Verdict: Sendable, Equatable {
        /// The collector took the batch; it rejected `rejected` of its items (`message` may say
        /// why, or warn when it rejected none).
        case accepted(rejected: Int64, message: String?)
        /// Send the batch again at this monotonic instant (as `now`), for this reason.
        case retry(at: Milliseconds, reason: String)
        /// Never send it again, for this reason.
        case dropped(reason: String)
    }

    /// The statuses OTLP/HTTP retries. Narrower than ``HTTPStatus/mayPassLater(_:)``: a collector's
    /// 500 says the batch itself broke it, and the same batch would again.
    package static func isRetryable(_ status: Int) -> Bool {
        [429, 502, 503, 504].contains(status)
    }

    /// The verdict on `result`, the outcome of sending a batch of `signal` for the `attempts`th
    /// time (1 for the first), at `now` (the monotonic clock). `wallNow` (epoch milliseconds)
    /// turns a `Retry-After` date into a wait, counted from `now`.
    package func verdict(
        on result: Result<HTTPClientResponse, HTTPClientError>, of signal: OTLPSignal, attempts: Int, now: Milliseconds,
        wallNow: Milliseconds, using random: inout some RandomNumberGenerator
    ) -> Verdict {
        let reason: String
        var requestedWait: Milliseconds = 0
        switch result {
        case .success(let response) where response.isSuccess:
            let answer = OTLPExportAnswer(body: response.body, signal: signal)
            return .accepted(rejected: answer.rejected, message: answer.message)
        case .success(let response) where Self.isRetryable(response.status):
            reason = "HTTP \(response.status)"
            requestedWait = min(response.requestedWait(wallNow: wallNow) ?? 0, longestRequestedWait)
        case .success(let response):
            let message = OTLPExportAnswer.failureMessage(body: response.body).map { ": \($0)" } ?? ""
            return .dropped(reason: "HTTP \(response.status), not retried\(message)")
        case .failure(let error):
            reason = error.description
        }
        guard attempts <= maxRetries else {
            return .dropped(reason: "gave up after \(attempts) attempt\(attempts == 1 ? "" : "s"); last: \(reason)")
        }
        let wait = max(backoff.delay(forRetry: attempts, using: &random), requestedWait)
        return .retry(at: now + wait, reason: reason)
    }
}
