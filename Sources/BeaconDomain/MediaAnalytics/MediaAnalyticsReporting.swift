/// What the media-analytics reporter asks its edge to do.
package enum MediaAnalyticsEffect: Sendable, Equatable {
    /// A request to the Media Collection API; its answer comes back.
    case send(MediaCollectionRequest)
    /// Keep this backlog in the state directory in place of the last one (`offline-enabled`).
    case keep(MediaCollectionBacklog)
}

/// The media-analytics reporter's decisions in one value, as a reporter's core: the tracker makes
/// the events, the outbox sends them one at a time; an answer that says the session is gone makes
/// the tracker resume it. Every input ends by asking the outbox for its next request and, with
/// `offline-enabled`, by keeping the backlog when it changed.
package struct MediaAnalyticsReporting: ReporterCore {
    package typealias Answer = Result<HTTPClientResponse, HTTPClientError>

    package private(set) var tracker: MediaAnalyticsTracker
    package private(set) var outbox: MediaCollectionOutbox
    /// Notifications the tracker refused (in the error state), each logged as a warning.
    package private(set) var refused = 0
    /// The backlog last kept, and the outbox's revision it was taken at; nil without `offline-enabled`.
    private var kept: MediaCollectionBacklog?
    private var keptRevision = 0

    /// - Parameter backlog: what the run before kept, sent first (with `offline-enabled`).
    package init(
        reporting: MediaCollectionParameters.Reporting, outbox: MediaCollectionOutbox = MediaCollectionOutbox(),
        backlog: MediaCollectionBacklog? = nil, wallNow: Milliseconds = 0
    ) {
        tracker = MediaAnalyticsTracker(reporting: reporting)
        self.outbox = outbox
        guard reporting.settings.offlineEnabled else { return }
        kept = backlog ?? MediaCollectionBacklog()
        if let backlog { self.outbox.restore(backlog, wallNow: wallNow) }
        keptRevision = self.outbox.revision
    }

    package var endpoint: String { tracker.reporting.settings.endpoint ?? "" }

    /// Every notification: the tracker passes over what it does not report.
    package static func input(from notification: DaemonNotification) -> DaemonNotification? { notification }

    package mutating func take(_ notification: DaemonNotification, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<MediaAnalyticsEffect>] {
        take(tracker.receive(notification, now: now, wallNow: wallNow)) + sendNext(now: now)
    }

    /// Makes the ping that is due by `now`, if any; a retry due by then goes out.
    package mutating func wake(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<MediaAnalyticsEffect>] {
        take(tracker.pingDue(now: now, wallNow: wallNow)) + sendNext(now: now)
    }

    package mutating func setEnabled(_ enabled: Bool, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<MediaAnalyticsEffect>] {
        [.log(LogLine(.info, "media-analytics \(enabled ? "enabled" : "disabled")"))]
            + take(tracker.setEnabled(enabled, now: now, wallNow: wallNow)) + sendNext(now: now)
    }

    /// The daemon finished: the open session ends.
    package mutating func end(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<MediaAnalyticsEffect>] {
        take(tracker.shutdown(now: now, wallNow: wallNow)) + sendNext(now: now)
    }

    /// What became of the request in flight; a session gone is resumed at once.
    package mutating func record(
        _ result: Answer, of effect: MediaAnalyticsEffect, now: Milliseconds, wallNow: Milliseconds, using random: inout some RandomNumberGenerator
    ) -> [ReporterAction<MediaAnalyticsEffect>] {
        guard case .send = effect, let outcome = outbox.record(result, now: now, wallNow: wallNow, using: &random) else { return sendNext(now: now) }
        var actions = Self.log(outcome, now: now).map { [ReporterAction<MediaAnalyticsEffect>.log($0)] } ?? []
        if case .sessionGone(let session, _, _) = outcome {
            actions += take(tracker.sessionGone(session, now: now, wallNow: wallNow))
        }
        return actions + sendNext(now: now)
    }

    /// The soonest instant something falls due: a ping, a retry, or at once a request that waits
    /// for nothing (a backlog restored at start, before any input).
    package var nextWake: Milliseconds? {
        let send = outbox.isInFlight || outbox.isEmpty ? nil : outbox.retryAt ?? 0
        return [tracker.nextPingAt, send].compactMap { $0 }.min()
    }

    /// Nothing left to send.
    package var isSettled: Bool { outbox.isEmpty }

    private mutating func take(_ output: MediaAnalyticsTracker.Output) -> [ReporterAction<MediaAnalyticsEffect>] {
        outbox.enqueue(output.emissions)
        refused += output.warnings.count
        var actions: [ReporterAction<MediaAnalyticsEffect>] = output.warnings.map { .log(LogLine(.warning, $0)) }
        for case .analyticsError(let reason) in output.notifications {
            actions.append(.log(LogLine(.error, "media-analytics: \(reason); nothing is tracked of this playback until the next load")))
        }
        return actions + output.notifications.map { .publish(.playerNotified($0)) }
    }

    /// The backlog when it changed, then the outbox's next request, unless one is in flight or the
    /// head waits for its retry.
    private mutating func sendNext(now: Milliseconds) -> [ReporterAction<MediaAnalyticsEffect>] {
        var actions: [ReporterAction<MediaAnalyticsEffect>] = []
        // Built only when the queue moved: a tick that changes nothing costs a comparison of two numbers.
        if let kept, outbox.revision != keptRevision {
            keptRevision = outbox.revision
            let backlog = outbox.backlog
            if backlog != kept {
                self.kept = backlog
                actions.append(.perform(.keep(backlog)))
            }
        }
        guard case .send(let request) = outbox.next(now: now) else { return actions }
        return actions + [.perform(.send(request))]
    }

    private static func log(_ outcome: MediaCollectionOutbox.Outcome, now: Milliseconds) -> LogLine? {
        switch outcome {
        case .delivered:
            nil
        case .sessionOpened(_, let sessionID):
            LogLine(.info, "media-analytics session opened session=\(sessionID)")
        case .retrying(let type, let reason, let at):
            LogLine(.warning, "media-analytics \(type.rawValue) failed (\(reason)), retrying in \(max(at - now, 0)) ms")
        case .sessionRefused(_, let reason, let dropped):
            LogLine(.error, "media-analytics sessionStart refused (\(reason)); dropped=\(dropped)")
        case .sessionGone(_, let status, let dropped):
            LogLine(.warning, "media-analytics session gone (HTTP \(status)); resuming in a new session, dropped=\(dropped)")
        case .refused(let type, let status):
            LogLine(.warning, "media-analytics \(type.rawValue) refused (HTTP \(status))")
        }
    }
}
