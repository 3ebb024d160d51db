/// The session heartbeat as a reporter's core: ``HeartbeatTracker``'s rules, and the switch.
///
/// Disabled, it goes on deciding and carries out nothing: a request is answered `notSent` at
/// once, the player is told nothing and no bookmark is kept.
package struct HeartbeatReporting: ReporterCore {
    /// What the heartbeat asks its edge for.
    package enum Effect: Sendable, Equatable {
        case send(HeartbeatRequest)
        case saveBookmark(contentID: String, position: Milliseconds)
    }

    package private(set) var tracker: HeartbeatTracker
    package private(set) var enabled = true
    /// Requests answered `notSent` while disabled.
    package private(set) var notSentWhileDisabled = 0
    /// The last line the player was told.
    package private(set) var lastNotification: String?
    /// Keys of the `load`s' heartbeat objects known under no name, so far.
    package private(set) var unknownKeys = 0
    /// Why the latest playback runs no heartbeat though its `load` asked for one in part.
    package private(set) var notRunning: String?

    package init(tracker: HeartbeatTracker) {
        self.tracker = tracker
    }

    package static func input(from notification: DaemonNotification) -> HeartbeatInput? {
        notification.heartbeatInput
    }

    package mutating func take(_ input: HeartbeatInput, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>] {
        var warnings: [ReporterAction<Effect>] = []
        if case .loaded(let options, _) = input { warnings = warn(loading: options) }
        return warnings + actions(tracker.handle(input, now: now, wallNow: wallNow), now: now, wallNow: wallNow)
    }

    /// A `load`'s heartbeat object, read as the player wrote it: each unknown key is warned of
    /// and counted, and a token without the flag says why no heartbeat runs.
    private mutating func warn(loading options: HeartbeatOptions?) -> [ReporterAction<Effect>] {
        notRunning = nil
        guard let options else { return [] }
        unknownKeys += options.unknownKeys.count
        var lines = options.unknownKeyWarnings
        if !options.flag, options.token != nil {
            let reason = "the playback's heartbeat object has a token but no flag (flag or heartbeatFlag: true)"
            notRunning = reason
            lines.append("heartbeat: none for this playback: \(reason)")
        }
        return lines.map { .log(LogLine(.warning, $0)) }
    }

    package mutating func wake(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>] {
        actions(tracker.due(now: now, wallNow: wallNow), now: now, wallNow: wallNow)
    }

    package mutating func record(
        _ answer: HeartbeatOutcome, of effect: Effect, now: Milliseconds, wallNow: Milliseconds, using random: inout some RandomNumberGenerator
    ) -> [ReporterAction<Effect>] {
        guard case .send(let request) = effect else { return [] }
        return actions(tracker.record(answer, of: request, now: now, wallNow: wallNow), now: now, wallNow: wallNow)
    }

    package mutating func setEnabled(_ enabled: Bool, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>] {
        self.enabled = enabled
        return [.log(LogLine(.info, "heartbeat reporter \(enabled ? "enabled" : "disabled")"))]
    }

    /// A playback still open ends now: its `stop`.
    package mutating func end(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>] {
        actions(tracker.end(wallNow: wallNow), now: now, wallNow: wallNow)
    }

    package var nextWake: Milliseconds? { tracker.nextWake }

    package var isSettled: Bool { tracker.playback == nil }

    /// The status's state, in a few words.
    package var state: String {
        guard let playback = tracker.playback else { return "idle" }
        if playback.heartbeatStopped { return "stopped" }
        return playback.started ? "reporting" : "waiting for playback"
    }

    private mutating func actions(_ decided: [HeartbeatAction], now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>] {
        var actions: [ReporterAction<Effect>] = []
        for action in decided {
            switch action {
            case .send(let request) where enabled:
                actions.append(.perform(.send(request)))
            case .send(let request):
                notSentWhileDisabled += 1
                actions += self.actions(tracker.record(.notSent, of: request, now: now, wallNow: wallNow), now: now, wallNow: wallNow)
            case .notify(let notification) where enabled:
                lastNotification = notification.line
                actions.append(.log(LogLine(.notice, "heartbeat notifies the player \(notification.line)")))
                actions.append(.publish(.playerNotified(notification)))
            case .warn(let failures, let reason) where enabled:
                actions.append(
                    .log(LogLine(.warning, "heartbeat failing on a VOD playback, going on failures_in_a_row=\(failures) reason=\"\(reason)\"")))
                actions.append(.publish(.heartbeatFailing(failuresInARow: failures, reason: reason)))
            case .saveBookmark(let contentID, let position) where enabled:
                actions.append(.perform(.saveBookmark(contentID: contentID, position: position)))
            case .notify, .warn, .saveBookmark:
                break
            }
        }
        return actions
    }
}
