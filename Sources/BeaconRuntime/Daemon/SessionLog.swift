import BeaconDomain
import Logging

/// The session's log lines and what the outputs hear of it: a session starting, ready or resumed,
/// its init failing, its end. The daemon keeps the session's state; these only tell of it.
struct SessionLog {
    let logger: Logger
    let announce: @Sendable (String) -> Void
    let notifications: DaemonNotificationHub

    private func notify(_ notification: DaemonNotification) { notifications.publish(notification) }

    func starting(mediaURL: String) {
        logger.info("session starting mediaUrl=\(mediaURL)")
        notify(.sessionStarting(mediaURL: mediaURL))
    }

    func ready(_ endpoints: SessionEndpoints, resumed: Bool) {
        logger.info(
            "session \(resumed ? "resumed from the journal" : "ready") sessionId=\(endpoints.sessionID ?? "-") manifestUrl=\(endpoints.manifestURL) trackingUrl=\(endpoints.trackingURL)")
    }

    /// Tells of what a session transition decided; the effects that wake a waiter tell nothing.
    func report(_ effect: SessionSupervisor.Effect) {
        switch effect {
        case .ended(let endpoints):
            logger.info("session ended sessionId=\(endpoints.sessionID ?? "-")")
            notify(.sessionEnded(sessionID: endpoints.sessionID))
        case .retryInit(let mediaURL, let reason, let failures, let wait, _):
            logger.error("session init failed, retrying mediaUrl=\(mediaURL) reason=\"\(reason)\" failures=\(failures) retry_in_ms=\(wait)")
        case .gaveUp(let mediaURL, let reason):
            logger.error("session init failed, not retried mediaUrl=\(mediaURL) reason=\"\(reason)\"")
        case .ready(let endpoints):
            announce(endpoints.announcement)
            notify(.sessionReady(endpoints))
        case .superseded, .initialize, .replyToLoads, .settled, .stop:
            break
        }
    }
}
