import BeaconDomain
import Logging

/// The streaming service's session heartbeat: ``HeartbeatReporting`` decides, ``HeartbeatEdge``
/// sends its requests (on the reporter's own HTTP client, the token as `X-Heartbeat-Token`, never
/// logged) and keeps its bookmarks, and the runner does the rest as for every reporter.
package typealias HeartbeatReporter = ReporterRunner<HeartbeatEdge>

extension ReporterRunner where Edge == HeartbeatEdge {
    /// - Parameters:
    ///   - client: the reporter's own HTTP client, so that heartbeats never wait behind ad beacons.
    ///   - drainTimeout: how long the end of the last playback may take once the daemon finished.
    ///   - bookmarks: where `record-bookmark` keeps each content's last bookmark.
    ///   - quiet: decides everything and sends nothing, like the ad beacons.
    ///   - publish: tells the hub what the player was told (`playerNotified`) and a VOD's failing heartbeat.
    package init(
        settings: HeartbeatSettings, deviceID: String, client: any HTTPClient, time: TimeSource,
        random: any RandomNumberGenerator & Sendable, logger: Logger, drainTimeout: Duration, bookmarks: any BookmarkStore, quiet: Bool = false,
        publish: @escaping @Sendable (DaemonNotification) -> Void
    ) {
        self.init(
            core: HeartbeatReporting(tracker: HeartbeatTracker(settings: settings, deviceID: deviceID)),
            edge: HeartbeatEdge(settings: settings, client: client, time: time, logger: logger, bookmarks: BookmarkKeeper(bookmarks)),
            time: time, random: random, logger: logger, drainTimeout: drainTimeout, quiet: quiet, publish: publish)
    }
}

/// The heartbeat's requests and bookmarks.
package struct HeartbeatEdge: ReporterEdge {
    let settings: HeartbeatSettings
    let client: any HTTPClient
    let time: TimeSource
    let logger: Logger
    let bookmarks: BookmarkKeeper

    package var name: ReporterName { .heartbeat }

    package func perform(_ effect: HeartbeatReporting.Effect, quiet: Bool) async -> Performed<HeartbeatOutcome> {
        switch effect {
        case .send(let request):
            return await send(request, quiet: quiet)
        case .saveBookmark(let contentID, let position):
            do throws(JournalError) {
                try await bookmarks.save(contentID: contentID, position: position, savedAt: time.wallNow())
                return Performed(answer: nil)
            } catch {
                logger.error("heartbeat bookmark not kept contentId=\(contentID) reason=\"\(error.reason)\"")
                return Performed(answer: nil, counter: "bookmarkFailed")
            }
        }
    }

    private func send(_ request: HeartbeatRequest, quiet: Bool) async -> Performed<HeartbeatOutcome> {
        guard !quiet else { return Performed(answer: .notSent, counter: "notSent") }
        let requestedAt = time.wallNow()
        let outcome: HeartbeatOutcome
        do throws(HTTPClientError) {
            let response = try await client.send(request.httpRequest(extraHeaders: settings.headers))
            outcome = .answered(status: response.status, body: response.body)
        } catch {
            outcome = .failed(reason: error.description)
        }
        let succeeded = if case .answered(let status, _) = outcome { HTTPStatus.isSuccess(status) } else { false }
        if succeeded {
            logger.debug("HEARTBEAT \(request.summary) answer=\"\(outcome.summary)\"")
        } else {
            logger.warning("HEARTBEAT \(request.summary) answer=\"\(outcome.summary)\"")
        }
        return Performed(
            answer: outcome, request: request.summary, requestedAt: requestedAt, result: outcome.summary, counter: succeeded ? "sent" : "failed")
    }

    package func status(of core: HeartbeatReporting, enabled: Bool, quiet: Bool, draining: Bool, wallOffset: Milliseconds) -> ReporterStatus {
        let tracker = core.tracker
        var details: [String: String] = [:]
        if let next = tracker.nextProgressAt { details["nextDue"] = UTCTime.format(next + wallOffset) }
        if let lastNotification = core.lastNotification { details["lastNotification"] = lastNotification }
        if let notRunning = core.notRunning { details["notRunning"] = notRunning }
        if let playback = tracker.playback {
            details["contentId"] = playback.options.contentID ?? "-"
            details["syncIntervalMs"] = "\(tracker.syncInterval)"
        }
        var counters: [String: Int] = [:]
        if core.notSentWhileDisabled > 0 { counters["notSent"] = core.notSentWhileDisabled }
        if core.unknownKeys > 0 { counters["unknownKeys"] = core.unknownKeys }
        return ReporterStatus(
            name: name, configured: settings.isConfigured, enabled: enabled, state: core.state,
            failuresInARow: tracker.playback?.failuresInARow ?? 0, counters: counters, details: details)
    }
}
