/// The media-analytics reporter's decisions in one value: the tracker makes the events, the outbox
/// sends them; an answer that says the session is gone makes the tracker resume it. The runtime
/// feeds it notifications and answers, asks it what to send and when to wake, and does the I/O.
public struct MediaAnalyticsReporting: Sendable {
    public private(set) var tracker: MediaAnalyticsTracker
    public private(set) var outbox: MediaCollectionOutbox

    public init(reporting: MediaCollectionParameters.Reporting, outbox: MediaCollectionOutbox = MediaCollectionOutbox()) {
        tracker = MediaAnalyticsTracker(reporting: reporting)
        self.outbox = outbox
    }

    public var endpoint: String { tracker.reporting.settings.endpoint ?? "" }

    /// Takes a notification; returns the refusals to log as warnings.
    public mutating func receive(_ notification: DaemonNotification, now: Milliseconds, wallNow: Milliseconds) -> [String] {
        take(tracker.receive(notification, now: now, wallNow: wallNow))
    }

    /// Makes the ping that is due by `now`, if any.
    public mutating func wake(now: Milliseconds, wallNow: Milliseconds) {
        _ = take(tracker.pingDue(now: now, wallNow: wallNow))
    }

    public mutating func setEnabled(_ enabled: Bool, now: Milliseconds, wallNow: Milliseconds) {
        _ = take(tracker.setEnabled(enabled, now: now, wallNow: wallNow))
    }

    public mutating func shutdown(now: Milliseconds, wallNow: Milliseconds) {
        _ = take(tracker.shutdown(now: now, wallNow: wallNow))
    }

    /// The next request to send, a wait, or nothing.
    public mutating func next(now: Milliseconds) -> MediaCollectionOutbox.Step {
        outbox.next(now: now)
    }

    /// What became of the request in flight; a session gone is resumed at once.
    public mutating func record(
        _ result: Result<HTTPClientResponse, HTTPClientError>, now: Milliseconds, wallNow: Milliseconds,
        using random: inout some RandomNumberGenerator
    ) -> MediaCollectionOutbox.Outcome? {
        let outcome = outbox.record(result, now: now, wallNow: wallNow, using: &random)
        if case .sessionGone(let session, _, _) = outcome {
            _ = take(tracker.sessionGone(session, now: now, wallNow: wallNow))
        }
        return outcome
    }

    /// The soonest instant something falls due: a ping or a retry.
    public var nextWake: Milliseconds? {
        [tracker.nextPingAt, outbox.isInFlight ? nil : outbox.retryAt].compactMap { $0 }.min()
    }

    /// Nothing left to send.
    public var isSettled: Bool { outbox.isEmpty }

    private mutating func take(_ output: MediaAnalyticsTracker.Output) -> [String] {
        outbox.enqueue(output.emissions)
        return output.warnings
    }
}
