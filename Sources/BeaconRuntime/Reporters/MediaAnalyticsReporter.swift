import BeaconDomain
import Logging
import Synchronization

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
    ///   - state: where the backlog is kept with `offline-enabled`, and read back at start.
    package init(
        settings: MediaAnalyticsSettings, version: String, state: any ReporterStateStore, http: any HTTPClient, time: TimeSource,
        random: any RandomNumberGenerator & Sendable, logger: Logger, drainTimeout: Duration, quiet: Bool = false, debugTracing: Bool = false,
        publish: @escaping @Sendable (DaemonNotification) -> Void = { _ in }
    ) {
        let backlog = settings.offlineEnabled ? state.mediaAnalyticsBacklog().flatMap(MediaCollectionBacklog.init(text:)) : nil
        if let backlog, backlog.eventCount > 0 {
            logger.notice("media-analytics: \(backlog.eventCount) events kept by the last run are sent first")
        }
        let core = MediaAnalyticsReporting(
            reporting: MediaCollectionParameters.Reporting(settings: settings, version: version, installationID: state.installationID()),
            backlog: backlog, wallNow: time.wallNow())
        self.init(
            core: core,
            edge: MediaAnalyticsEdge(
                configured: settings.isConfigured, endpoint: core.endpoint, http: http, time: time, logger: logger, state: state,
                alwaysQuiet: settings.quiet, debugTracing: debugTracing || settings.debugLogging),
            time: time, random: random, logger: logger, drainTimeout: drainTimeout, quiet: quiet, publish: publish)
    }
}

/// The Media Collection API's requests, and the backlog kept in the state directory. Quiet, the
/// back end's answers are made up: a session id for each `sessionStart`, `204` for each event.
package struct MediaAnalyticsEdge: ReporterEdge {
    let configured: Bool
    let endpoint: String
    let http: any HTTPClient
    let time: TimeSource
    let logger: Logger
    let state: any ReporterStateStore
    /// Whether the last backlog could not be kept: a failure is logged when it begins, and its end.
    private let keepFailing = FailureStreak()
    /// The reporter's own quiet setting, beside the daemon's.
    let alwaysQuiet: Bool
    let debugTracing: Bool

    package var name: ReporterName { .mediaAnalytics }

    init(
        configured: Bool, endpoint: String, http: any HTTPClient, time: TimeSource, logger: Logger, state: any ReporterStateStore,
        alwaysQuiet: Bool, debugTracing: Bool
    ) {
        self.configured = configured
        self.endpoint = endpoint
        self.http = http
        self.time = time
        self.logger = logger
        self.state = state
        self.alwaysQuiet = alwaysQuiet
        self.debugTracing = debugTracing
    }

    package func perform(_ effect: MediaAnalyticsEffect, quiet: Bool) async -> Performed<MediaAnalyticsReporting.Answer> {
        switch effect {
        case .send(let request): await send(request, quiet: quiet)
        case .keep(let backlog): await keep(backlog)
        }
    }

    /// Writes the backlog on the ``BlockingPool`` (a file synced to disk).
    private func keep(_ backlog: MediaCollectionBacklog) async -> Performed<MediaAnalyticsReporting.Answer> {
        let failure: String?
        do throws(ReporterStateError) {
            try await BlockingPool.run(
                { [state, text = backlog.text] () throws(ReporterStateError) in try state.keepMediaAnalyticsBacklog(text) },
                shutDown: ReporterStateError(reason: "the blocking pool is shut down"))
            failure = nil
        } catch {
            failure = error.reason
        }
        let wasFailing = keepFailing.swap(failure != nil)
        if let failure, !wasFailing {
            logger.warning("media-analytics: cannot keep the events not sent yet, a restart would lose them: \(failure)")
        } else if failure == nil, wasFailing {
            logger.notice("media-analytics: the events not sent yet are kept again")
        }
        return Performed(answer: nil)
    }

    private func send(_ request: MediaCollectionRequest, quiet daemonQuiet: Bool) async -> Performed<MediaAnalyticsReporting.Answer> {
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

/// Whether a repeated operation is failing, shared by the copies of an edge.
private final class FailureStreak: Sendable {
    private let failing = Mutex(false)

    /// Sets whether it fails now; returns whether it failed before.
    func swap(_ now: Bool) -> Bool {
        failing.withLock { failing in
            defer { failing = now }
            return failing
        }
    }
}
