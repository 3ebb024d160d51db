/// Exponential backoff with full jitter: retry number n waits a random time in
/// `0...min(cap, base × 2^(n-1))`, so clients that failed together do not retry together.
package struct Backoff: Sendable, Equatable {
    /// The ceiling of the first retry's wait.
    package var base: Milliseconds
    /// The largest ceiling, whatever the number of retries.
    package var cap: Milliseconds

    package init(base: Milliseconds = 1000, cap: Milliseconds = 60_000) {
        self.base = max(base, 1)
        self.cap = max(cap, self.base)
    }

    /// The longest wait before retry number `retry` (1 for the first retry).
    package func ceiling(forRetry retry: Int) -> Milliseconds {
        let doublings = min(max(retry, 1) - 1, 62)
        let (grown, overflow) = base.multipliedReportingOverflow(by: 1 << doublings)
        return overflow ? cap : min(grown, cap)
    }

    /// A wait before retry number `retry`, drawn uniformly from `0...ceiling(forRetry:)`.
    package func delay(forRetry retry: Int, using random: inout some RandomNumberGenerator) -> Milliseconds {
        Milliseconds.random(in: 0...ceiling(forRetry: retry), using: &random)
    }
}
