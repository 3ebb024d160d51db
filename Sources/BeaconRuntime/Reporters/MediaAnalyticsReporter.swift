import BeaconDomain
import Logging
import Synchronization

/// The `media-analytics` reporter: Adobe's Media Collection API fed by the daemon's notifications.
///
/// Every decision is ``MediaAnalyticsReporting``'s; this actor stamps notifications with the time,
/// carries out what the core says on its own HTTP client, one request at a time, and waits on the
/// time source for the next ping or retry. Quiet mode computes everything and sends nothing (the
/// back end's answers are made up: a session id for each `sessionStart`, `204` for each event);
/// debug tracing logs every request with its body and every answer.
package actor MediaAnalyticsReporter: Reporter {
    /// A notification or a switch, with the time it came: both go through one stream, so a switch
    /// takes effect between the notifications it came between.
    private struct Stamped: Sendable {
        enum Input: Sendable {
            case notification(DaemonNotification)
            case enabled(Bool)
        }

        var input: Input
        var now: Milliseconds
        var wallNow: Milliseconds
    }

    package nonisolated let name = ReporterName.mediaAnalytics
    private nonisolated let time: TimeSource
    private nonisolated let input: AsyncStream<Stamped>.Continuation
    /// Notifications that found ``Reporter/maxWaiting`` already waiting.
    private nonisolated let dropped = Atomic<Int>(0)
    private let stamped: AsyncStream<Stamped>
    /// Woken when a notification or a switch may have made something due sooner.
    private let wakeup = Wakeup()
    private let http: any HTTPClient
    private let logger: Logger
    private let drainTimeout: Milliseconds
    private let configured: Bool
    /// Changed by a reload (``setQuiet(_:)``), from the next request on.
    private var quiet: Bool
    private let debugTracing: Bool
    private var core: MediaAnalyticsReporting
    /// Retries' jitter.
    private var random: any RandomNumberGenerator & Sendable
    private var enabled = true
    /// Set once the daemon finished: what is left must be out by then.
    private var drainDeadline: Milliseconds?
    private var lastRequest: String?
    private var lastRequestAt: Milliseconds?
    private var lastAnswer: String?
    private var refused = 0
    private var quietSessions = 0

    package init(
        settings: MediaAnalyticsSettings, version: String, installationID: String, http: any HTTPClient, time: TimeSource,
        random: any RandomNumberGenerator & Sendable, logger: Logger, drainTimeout: Duration, quiet: Bool = false, debugTracing: Bool = false
    ) {
        core = MediaAnalyticsReporting(
            reporting: MediaCollectionParameters.Reporting(settings: settings, version: version, installationID: installationID))
        configured = settings.isConfigured
        self.http = http
        self.time = time
        self.random = random
        self.logger = logger
        self.drainTimeout = drainTimeout.milliseconds
        self.quiet = quiet
        self.debugTracing = debugTracing
        (stamped, input) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(Self.maxWaiting))
    }

    package nonisolated func receive(_ notification: DaemonNotification) {
        if case .dropped = input.yield(Stamped(input: .notification(notification), now: time.now(), wallNow: time.wallNow())) {
            dropped.add(1, ordering: .relaxed)
        }
    }

    package nonisolated func finish() {
        input.finish()
    }

    package func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await stamped in self.stamped { await self.take(stamped) }
                await self.drain()
            }
            group.addTask { await self.sendLoop() }
        }
    }

    package func setEnabled(_ enabled: Bool) async {
        guard enabled != self.enabled else { return }
        self.enabled = enabled
        if case .dropped = input.yield(Stamped(input: .enabled(enabled), now: time.now(), wallNow: time.wallNow())) {
            // A full queue never loses a switch: it takes effect now, ahead of what waits.
            core.setEnabled(enabled, now: time.now(), wallNow: time.wallNow())
            wakeup.signal()
        }
        logger.info("media-analytics \(enabled ? "enabled" : "disabled")")
    }

    package func setQuiet(_ quiet: Bool) async {
        self.quiet = quiet
    }

    package func status() async -> ReporterStatus {
        let outbox = core.outbox
        let tracker = core.tracker
        var details: [String: String] = ["privacy": tracker.privacy.rawValue]
        if let session = tracker.sessionNumber, let id = outbox.sessionID(of: session) { details["sessionId"] = id }
        if let retryAt = outbox.retryAt { details["nextRetryAt"] = String(retryAt + time.wallOffset()) }
        return ReporterStatus(
            name: name, configured: configured, enabled: enabled, state: state, lastRequest: lastRequest,
            lastRequestAt: lastRequestAt, lastAnswer: lastAnswer, failuresInARow: outbox.failuresInARow,
            counters: [
                "sent": outbox.sent, "failed": outbox.failed, "retried": outbox.retried,
                "dropped": outbox.dropped + tracker.droppedWhileHeld + dropped.load(ordering: .relaxed), "queued": outbox.queue.count, "held": tracker.heldCount,
                "refused": refused,
            ],
            details: details)
    }

    private var state: String {
        let tracker = core.tracker
        if drainDeadline != nil { return core.isSettled ? "stopped" : "draining" }
        if !enabled { return "disabled" }
        if tracker.isInErrorState { return "error state" }
        switch tracker.privacy {
        case .optOut: return "opted out"
        case .unknown: return "holding for consent"
        case .optIn: return tracker.sessionNumber == nil ? "idle" : "session open"
        }
    }

    private func take(_ stamped: Stamped) {
        switch stamped.input {
        case .notification(let notification):
            for warning in core.receive(notification, now: stamped.now, wallNow: stamped.wallNow) {
                refused += 1
                logger.warning("\(warning)")
            }
        case .enabled(let enabled):
            core.setEnabled(enabled, now: stamped.now, wallNow: stamped.wallNow)
        }
        wakeup.signal()
    }

    private func drain() {
        let now = time.now()
        core.shutdown(now: now, wallNow: time.wallNow())
        drainDeadline = now + drainTimeout
        wakeup.signal()
    }

    /// Sends what is due, one request at a time, and sleeps until the next ping, retry or notification.
    private func sendLoop() async {
        while !Task.isCancelled {
            let now = time.now()
            if let drainDeadline, core.isSettled || now >= drainDeadline {
                if !core.isSettled { logger.warning("media-analytics drain timed out queued=\(core.outbox.queue.count)") }
                return
            }
            core.wake(now: now, wallNow: time.wallNow())
            switch core.next(now: now) {
            case .send(let request):
                await send(request)
            case .wait, .idle:
                await wakeup.wait(until: [core.nextWake, drainDeadline].compactMap { $0 }.min(), on: time)
            }
        }
    }

    private func send(_ request: MediaCollectionRequest) async {
        let httpRequest = request.httpRequest(endpoint: core.endpoint)
        let type = request.event.type
        let url = MediaCollectionParameters.withoutQuery(httpRequest.url)
        lastRequest = "\(type.rawValue) \(url)"
        lastRequestAt = time.wallNow()
        if debugTracing || quiet {
            let body = String(decoding: httpRequest.body, as: UTF8.self)
            logger.info("media-analytics \(quiet ? "would send" : "request") \(type.rawValue) url=\(url) body=\(body)")
        }
        let result = quiet ? madeUpAnswer(to: request) : await answer(to: httpRequest)
        let answer: String
        switch result {
        case .success(let response): answer = quiet ? "not sent (quiet)" : "HTTP \(response.status)"
        case .failure(let error): answer = error.description
        }
        lastAnswer = answer
        if debugTracing { logger.info("media-analytics answer \(type.rawValue) \(answer)") }
        guard let outcome = core.record(result, now: time.now(), wallNow: time.wallNow(), using: &random) else { return }
        log(outcome)
    }

    /// The answer, or `.cancelled` when the drain's deadline passes first.
    private func answer(to request: HTTPClientRequest) async -> Result<HTTPClientResponse, HTTPClientError> {
        let http = http
        guard let deadline = drainDeadline else {
            do throws(HTTPClientError) { return .success(try await http.send(request)) } catch { return .failure(error) }
        }
        return await withDeadline(deadline, on: time) { () -> Result<HTTPClientResponse, HTTPClientError> in
            do throws(HTTPClientError) { return .success(try await http.send(request)) } catch { return .failure(error) }
        } ?? .failure(.cancelled)
    }

    private func madeUpAnswer(to request: MediaCollectionRequest) -> Result<HTTPClientResponse, HTTPClientError> {
        guard request.event.type == .sessionStart else {
            return .success(HTTPClientResponse(status: 204, finalURL: "", body: [], latencyMilliseconds: 0))
        }
        quietSessions += 1
        return .success(
            HTTPClientResponse(
                status: 201, finalURL: "", body: [], latencyMilliseconds: 0, location: "/api/v1/sessions/quiet-\(quietSessions)"))
    }

    private func log(_ outcome: MediaCollectionOutbox.Outcome) {
        switch outcome {
        case .delivered:
            break
        case .sessionOpened(_, let sessionID):
            logger.info("media-analytics session opened session=\(sessionID)")
        case .retrying(let type, let reason, let at):
            logger.warning("media-analytics \(type.rawValue) failed (\(reason)), retrying in \(max(at - time.now(), 0)) ms")
        case .sessionRefused(_, let reason, let dropped):
            logger.error("media-analytics sessionStart refused (\(reason)); dropped=\(dropped)")
        case .sessionGone(_, let status, let dropped):
            logger.warning("media-analytics session gone (HTTP \(status)); resuming in a new session, dropped=\(dropped)")
        case .refused(let type, let status):
            logger.warning("media-analytics \(type.rawValue) refused (HTTP \(status))")
        }
    }
}
