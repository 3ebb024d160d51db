/// When to make a repeated request again (a metadata refresh, a session init attempt).
///
/// After a success, the normal `interval`. After each consecutive failure, a ``Backoff`` wait that
/// grows with the failures, never shorter than `interval` and at least what the server asked for
/// (`Retry-After`), bounded by `longestRequestedWait`. A success starts the count again.
package struct RetrySchedule: Sendable, Equatable {
    /// The wait after a success, and the shortest wait after a failure.
    package var interval: Milliseconds
    package var backoff: Backoff
    /// The longest server-requested wait honoured: a server must not be able to silence us for hours.
    package var longestRequestedWait: Milliseconds
    /// Failures since the last success.
    package private(set) var consecutiveFailures = 0

    package init(
        interval: Milliseconds, backoff: Backoff = Backoff(base: 1000, cap: 60_000), longestRequestedWait: Milliseconds = 600_000
    ) {
        self.interval = max(interval, 0)
        self.backoff = backoff
        self.longestRequestedWait = max(longestRequestedWait, 0)
    }

    /// A request succeeded: the count starts again; returns the wait before the next one.
    package mutating func succeeded() -> Milliseconds {
        consecutiveFailures = 0
        return interval
    }

    /// A request failed, the server asking to wait `requestedWait` if it said so; returns the wait
    /// before the next attempt.
    package mutating func failed(requestedWait: Milliseconds? = nil, using random: inout some RandomNumberGenerator) -> Milliseconds {
        consecutiveFailures += 1
        let wait = max(interval, backoff.delay(forRetry: consecutiveFailures, using: &random))
        guard let requestedWait else { return wait }
        return max(wait, min(max(requestedWait, 0), longestRequestedWait))
    }
}
