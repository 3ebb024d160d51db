/// How a session's metadata is refreshed: what each refresh starts from, when the next one is
/// due, and what a session remembers from one refresh to the next.
///
/// After a refresh that brought a document (new or unchanged), the next comes after the interval;
/// after one that failed, after a backoff that grows with the failures in a row, at least what the
/// server asked for with `Retry-After` and never more than ``RetrySchedule/longestRequestedWait``.
package struct MetadataRefresh: Sendable {
    /// The wait before each refresh: the interval, longer after failures.
    package var schedule: RetrySchedule
    /// When the next refresh is due; nil while one is under way.
    package private(set) var nextRefreshAt: Milliseconds?
    /// When a refresh last brought a document, on the wall clock: only shown.
    package private(set) var lastRefreshedAt: Milliseconds?
    /// Whether a refresh has ended, well or badly.
    package var attempted = false
    /// The last body read: an identical one is not decoded again.
    package private(set) var lastBody: [UInt8]?
    /// MediaTailor: the `nextToken` the next refresh starts from.
    package private(set) var nextToken: String?
    /// MediaTailor: program date time minus media time, from the first document that gave it.
    package private(set) var programDateTimeOffset: Milliseconds?

    package init(interval: Milliseconds) {
        schedule = RetrySchedule(interval: interval)
    }

    /// A refresh of `trackingURL` begins, in `dialect` when it is known (else decided by its first document).
    package mutating func begin(trackingURL: String, dialect: Dialect?) -> MetadataRound {
        nextRefreshAt = nil
        return MetadataRound(
            trackingURL: trackingURL, dialect: dialect, lastBody: lastBody, nextToken: nextToken, programDateTimeOffset: programDateTimeOffset)
    }

    /// What a round read stays for the next one (its last body, its token, the offset), whatever
    /// becomes of its document.
    package mutating func remember(_ round: MetadataRound) {
        lastBody = round.lastBody
        nextToken = round.nextToken
        programDateTimeOffset = round.programDateTimeOffset
    }

    /// A refresh brought a document (new or unchanged) at `now` (`wallNow` on the wall clock):
    /// back to the normal interval. Returns when the next refresh is due.
    package mutating func succeeded(now: Milliseconds, wallNow: Milliseconds) -> Milliseconds {
        lastRefreshedAt = wallNow
        return due(now + schedule.succeeded())
    }

    /// A refresh failed at `now`, its server asking to wait `requestedWait` if it said so: the
    /// next wait is longer with each failure in a row. Returns when the next refresh is due.
    package mutating func failed(requestedWait: Milliseconds?, now: Milliseconds, using random: inout some RandomNumberGenerator) -> Milliseconds {
        due(now + schedule.failed(requestedWait: requestedWait, using: &random))
    }

    private mutating func due(_ instant: Milliseconds) -> Milliseconds {
        nextRefreshAt = instant
        return instant
    }
}
