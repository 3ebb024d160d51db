import BeaconDomain
import Logging
import Synchronization

/// The streaming service's session heartbeat: hears the daemon's notifications, lets
/// ``HeartbeatTracker`` decide, and carries out what it decided on a task of its own: the
/// requests (one at a time, on its own HTTP client), the player's notifications (through
/// `publish`, which the composition root routes to the hub), the bookmarks.
///
/// Every wait is on the injected ``TimeSource``: a timer task sleeps until the tracker's next wake
/// and queues a `due` behind the notifications already received, so the tracker sees one ordered
/// stream. The token is sent as `X-Heartbeat-Token` and never logged.
package actor HeartbeatReporter: Reporter {
    /// A notification stamped when it was received, or the timer's wake.
    private enum Item: Sendable {
        case input(HeartbeatInput, now: Milliseconds, wallNow: Milliseconds)
        case due
    }

    package nonisolated let name = ReporterName.heartbeat
    private nonisolated let dropped = Atomic<Int>(0)
    private nonisolated let time: TimeSource
    private nonisolated let items: AsyncStream<Item>
    private nonisolated let continuation: AsyncStream<Item>.Continuation
    /// Signalled when the daemon finished: the drain timeout counts from then.
    private nonisolated let finished = Wakeup()
    /// Signalled after each item is handled: the tracker's next wake may have moved.
    private nonisolated let alarm = Wakeup()

    private var tracker: HeartbeatTracker
    private let client: any HTTPClient
    private let logger: Logger
    private let drainTimeout: Milliseconds
    private let bookmarks: any BookmarkStore
    private let publish: @Sendable (DaemonNotification) -> Void
    private var enabled = true
    private var quiet: Bool

    private var lastRequest: String?
    private var lastRequestAt: Milliseconds?
    private var lastAnswer: String?
    private var lastNotification: String?
    private var counters: [String: Int] = [:]

    /// - Parameters:
    ///   - client: the reporter's own HTTP client, so that heartbeats never wait behind ad beacons.
    ///   - drainTimeout: how long the end of the last playback may take once the daemon finished.
    ///   - bookmarks: where `record-bookmark` keeps each content's last bookmark.
    ///   - quiet: decides everything and sends nothing, like the ad beacons.
    ///   - publish: tells the hub what the player was told (`playerNotified`) and a VOD's failing heartbeat.
    package init(
        settings: HeartbeatSettings, deviceID: String, client: any HTTPClient, time: TimeSource, logger: Logger,
        drainTimeout: Duration, bookmarks: any BookmarkStore, quiet: Bool = false,
        publish: @escaping @Sendable (DaemonNotification) -> Void
    ) {
        tracker = HeartbeatTracker(settings: settings, deviceID: deviceID)
        self.client = client
        self.time = time
        self.logger = logger
        self.drainTimeout = drainTimeout.milliseconds
        self.bookmarks = bookmarks
        self.quiet = quiet
        self.publish = publish
        (items, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(Self.maxWaiting))
    }

    // MARK: DaemonNotificationSubscriber

    package nonisolated func receive(_ notification: DaemonNotification) {
        guard let input = notification.heartbeatInput else { return }
        if case .dropped = continuation.yield(.input(input, now: time.now(), wallNow: time.wallNow())) {
            dropped.add(1, ordering: .relaxed)
        }
    }

    package nonisolated func finish() {
        continuation.finish()
        finished.signal()
    }

    // MARK: Reporter

    package func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.consume() }
            group.addTask { await self.wakeAtEachDue() }
            group.addTask {
                await self.finished.wait()
                guard !Task.isCancelled else { return }
                try? await self.time.sleep(until: self.time.now() + self.drainTimeout)
            }
            // The items handled, or the drain timeout passed: whichever comes first ends the rest.
            await group.next()
            group.cancelAll()
        }
    }

    package func setEnabled(_ enabled: Bool) {
        self.enabled = enabled
        logger.info("heartbeat reporter \(enabled ? "enabled" : "disabled")")
    }

    /// `quiet` as reloaded.
    package func setQuiet(_ quiet: Bool) { self.quiet = quiet }

    package func status() -> ReporterStatus {
        var details: [String: String] = [:]
        let offset = time.wallOffset()
        if let next = tracker.nextProgressAt { details["nextDue"] = UTCTime.format(next + offset) }
        if let lastNotification { details["lastNotification"] = lastNotification }
        if let playback = tracker.playback {
            details["contentId"] = playback.options.contentID ?? "-"
            details["syncIntervalMs"] = "\(tracker.syncInterval)"
        }
        var counters = counters
        let dropped = dropped.load(ordering: .relaxed)
        if dropped > 0 { counters["dropped"] = dropped }
        return ReporterStatus(
            name: name, configured: tracker.settings.isConfigured, enabled: enabled, state: state, lastRequest: lastRequest,
            lastRequestAt: lastRequestAt, lastAnswer: lastAnswer, failuresInARow: tracker.playback?.failuresInARow ?? 0,
            counters: counters, details: details)
    }

    private var state: String {
        guard let playback = tracker.playback else { return "idle" }
        if playback.heartbeatStopped { return "stopped" }
        return playback.started ? "reporting" : "waiting for playback"
    }

    // MARK: The reporter's task

    private func consume() async {
        for await item in items {
            switch item {
            case .input(let input, let now, let wallNow):
                await carryOut(tracker.handle(input, now: now, wallNow: wallNow))
            case .due:
                await carryOut(tracker.due(now: time.now(), wallNow: time.wallNow()))
            }
            alarm.signal()
        }
        // The daemon finished: a playback still open ends now, within the drain timeout.
        await carryOut(tracker.end(wallNow: time.wallNow()))
    }

    /// Queues a `due` each time the tracker's next wake comes, until cancelled.
    private func wakeAtEachDue() async {
        while !Task.isCancelled {
            let wake = tracker.nextWake
            await alarm.wait(until: wake, on: time)
            guard let wake, time.now() >= wake, !Task.isCancelled else { continue }
            continuation.yield(.due)
            // Until the due is handled: the next wake is read after it.
            await alarm.wait()
        }
    }

    private func carryOut(_ actions: [HeartbeatAction]) async {
        for action in actions {
            switch action {
            case .send(let request):
                let outcome = await send(request)
                await carryOut(tracker.record(outcome, of: request, now: time.now(), wallNow: time.wallNow()))
            case .notify(let notification):
                guard enabled else { continue }
                lastNotification = notification.line
                logger.notice("heartbeat notifies the player \(notification.line)")
                publish(.playerNotified(notification))
            case .warn(let failures, let reason):
                guard enabled else { continue }
                logger.warning("heartbeat failing on a VOD playback, going on failures_in_a_row=\(failures) reason=\"\(reason)\"")
                publish(.heartbeatFailing(failuresInARow: failures, reason: reason))
            case .saveBookmark(let contentID, let position):
                guard enabled else { continue }
                do throws(JournalError) {
                    try bookmarks.saveBookmark(contentID: contentID, position: position, savedAt: time.wallNow())
                } catch {
                    count("bookmarkFailed")
                    logger.error("heartbeat bookmark not kept contentId=\(contentID) reason=\"\(error.reason)\"")
                }
            }
        }
    }

    private func send(_ request: HeartbeatRequest) async -> HeartbeatOutcome {
        guard enabled, !quiet else {
            count("notSent")
            return .notSent
        }
        lastRequest = request.summary
        lastRequestAt = time.wallNow()
        let outcome: HeartbeatOutcome
        do throws(HTTPClientError) {
            let response = try await client.send(request.httpRequest(extraHeaders: tracker.settings.headers))
            outcome = .answered(status: response.status, body: response.body)
        } catch {
            outcome = .failed(reason: error.description)
        }
        lastAnswer = outcome.summary
        if case .answered(let status, _) = outcome, HTTPStatus.isSuccess(status) {
            count("sent")
            logger.debug("HEARTBEAT \(request.summary) answer=\"\(outcome.summary)\"")
        } else {
            count("failed")
            logger.warning("HEARTBEAT \(request.summary) answer=\"\(outcome.summary)\"")
        }
        return outcome
    }

    private func count(_ counter: String) { counters[counter, default: 0] += 1 }
}
