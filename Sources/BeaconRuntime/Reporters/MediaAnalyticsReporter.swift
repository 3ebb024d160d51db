import BeaconDomain
import Logging

/// The `media-analytics` reporter: Adobe's Media Collection API fed by the daemon's notifications.
/// ``MediaAnalyticsReporting`` decides, ``MediaAnalyticsEdge`` sends on the reporter's own HTTP
/// client, and the runner does the rest as for every reporter.
package typealias MediaAnalyticsReporter = ReporterRunner<MediaAnalyticsEdge>

extension ReporterRunner where Edge == MediaAnalyticsEdge {
    /// - Parameters:
    ///   - random: the retries' jitter.
    ///   - quiet: computes everything and sends nothing; the back end's answers are made up. The
    ///     reporter's own `quiet` setting makes it so whatever the daemon's is.
    ///   - debugTracing: logs every request with its body, and every answer; so does the reporter's
    ///     own `debug-logging` setting.
    package init(
        settings: MediaAnalyticsSettings, version: String, installationID: String, http: any HTTPClient, time: TimeSource,
        random: any RandomNumberGenerator & Sendable, logger: Logger, drainTimeout: Duration, quiet: Bool = false, debugTracing: Bool = false,
        publish: @escaping @Sendable (DaemonNotification) -> Void = { _ in }
    ) {
        let core = MediaAnalyticsReporting(
            reporting: MediaCollectionParameters.Reporting(settings: settings, version: version, installationID: installationID))
        self.init(
            core: core,
            edge: MediaAnalyticsEdge(
                configured: settings.isConfigured, endpoint: core.endpoint, http: http, time: time, logger: logger,
                alwaysQuiet: settings.quiet, debugTracing: debugTracing || settings.debugLogging),
            time: time, random: random, logger: logger, drainTimeout: drainTimeout, quiet: quiet, publish: publish)
    }
}

/// The Media Collection API's requests. Quiet, the back end's answers are made up: a session id
/// for each `sessionStart`, `204` for each event.
package struct MediaAnalyticsEdge: ReporterEdge {
    let configured: Bool
    let endpoint: String
    let http: any HTTPClient
    let time: TimeSource
    let logger: Logger
    /// The reporter's own quiet setting, beside the daemon's.
    let alwaysQuiet: Bool
    let debugTracing: Bool

    package var name: ReporterName { .mediaAnalytics }

    package func perform(_ request: MediaCollectionRequest, quiet daemonQuiet: Bool) async -> Performed<Result<HTTPClientResponse, HTTPClientError>> {
        let quiet = daemonQuiet || alwaysQuiet
        let httpRequest = request.httpRequest(endpoint: endpoint)
        let type = request.event.type
        let url = MediaCollectionParameters.withoutQuery(httpRequest.url)
        let requestedAt = time.wallNow()
        if debugTracing || quiet {
            let body = String(decoding: httpRequest.body, as: UTF8.self)
            logger.info("media-analytics \(quiet ? "would send" : "request") \(type.rawValue) url=\(url) body=\(body)")
        }
        let result: Result<HTTPClientResponse, HTTPClientError>
        if quiet {
            result = .success(Self.madeUpAnswer(to: request))
        } else {
            do throws(HTTPClientError) { result = .success(try await http.send(httpRequest)) } catch { result = .failure(error) }
        }
        let answer: String
        switch result {
        case .success(let response): answer = quiet ? "not sent (quiet)" : "HTTP \(response.status)"
        case .failure(let error): answer = error.description
        }
        if debugTracing { logger.info("media-analytics answer \(type.rawValue) \(answer)") }
        return Performed(answer: result, request: "\(type.rawValue) \(url)", requestedAt: requestedAt, result: answer)
    }

    private static func madeUpAnswer(to request: MediaCollectionRequest) -> HTTPClientResponse {
        guard request.event.type == .sessionStart else { return HTTPClientResponse(status: 204, finalURL: "", body: [], latencyMilliseconds: 0) }
        return HTTPClientResponse(
            status: 201, finalURL: "", body: [], latencyMilliseconds: 0, location: "/api/v1/sessions/quiet-\(request.emission.session)")
    }

    package func status(of core: MediaAnalyticsReporting, enabled: Bool, quiet: Bool, draining: Bool, wallOffset: Milliseconds) -> ReporterStatus {
        let outbox = core.outbox
        let tracker = core.tracker
        var details: [String: String] = ["privacy": tracker.privacy.rawValue]
        if alwaysQuiet { details["quiet"] = "true" }
        if let session = tracker.sessionNumber, let id = outbox.sessionID(of: session) { details["sessionId"] = id }
        if let retryAt = outbox.retryAt { details["nextRetryAt"] = String(retryAt + wallOffset) }
        return ReporterStatus(
            name: name, configured: configured, enabled: enabled, state: Self.state(of: core, enabled: enabled, draining: draining),
            failuresInARow: outbox.failuresInARow,
            counters: [
                "sent": outbox.sent, "failed": outbox.failed, "retried": outbox.retried,
                "dropped": outbox.dropped + tracker.droppedWhileHeld, "queued": outbox.queue.count, "held": tracker.heldCount,
                "refused": core.refused,
            ],
            details: details)
    }

    private static func state(of core: MediaAnalyticsReporting, enabled: Bool, draining: Bool) -> String {
        let tracker = core.tracker
        if draining { return core.isSettled ? "stopped" : "draining" }
        if !enabled { return "disabled" }
        if tracker.isInErrorState { return "error state" }
        switch tracker.privacy {
        case .optOut: return "opted out"
        case .unknown: return "holding for consent"
        case .optIn: return tracker.sessionNumber == nil ? "idle" : "session open"
        }
    }
}
