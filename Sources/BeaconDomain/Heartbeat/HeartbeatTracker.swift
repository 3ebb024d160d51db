#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The session heartbeat's rules, as a value: fed the playback's inputs, the outcomes of its
/// requests and the instants it asked to wake at, it says what to send, what to tell the player
/// and which bookmark to keep. Time is an input: `now` the monotonic instant, `wallNow` the wall
/// clock sent as `ts`.
///
/// - `start` at the playback's first playhead or `play`; `progress` every sync interval after it
///   (the setting, overridden by the playback's `freq`, overridden by the service's answer);
///   `stateChange` on each change of the player's state; `stop` when the playback ends.
/// - A request without an answer, or answered other than 2xx, 401 or 403, failed; a 2xx resets the
///   count. At `max-allowed-failures` in a row a live playback is stopped (`heartbeatFailures`) and
///   its heartbeat ends; a VOD playback is warned about and goes on.
/// - 401 or 403 stops the playback at once (`heartbeatRejected`); so does 409 or 429 from the
///   concurrency endpoint (`concurrencyLimit`), before any heartbeat.
/// - Live events, from the playhead (program date time) and from the service's answers, each given
///   once per playback; nothing is given after a stop.
package struct HeartbeatTracker: Sendable {
    /// The bounds of any sync interval, wherever it comes from: no hot loop, no silence for days.
    package static let syncIntervalRange: ClosedRange<Milliseconds> = 100...86_400_000

    package let settings: HeartbeatSettings
    package let deviceID: String
    package internal(set) var playback: HeartbeatPlayback?
    private var generations = 0

    package init(settings: HeartbeatSettings, deviceID: String) {
        self.settings = settings
        self.deviceID = deviceID
    }

    /// The sync interval now in force for the playback.
    package var syncInterval: Milliseconds {
        let configured = playback?.answeredSyncInterval ?? playback?.options.freq ?? settings.syncInterval.milliseconds
        return min(max(configured, Self.syncIntervalRange.lowerBound), Self.syncIntervalRange.upperBound)
    }

    /// When the next `progress` is due, if one is.
    package var nextProgressAt: Milliseconds? {
        guard let playback, playback.started, !playback.heartbeatStopped, let last = playback.lastProgressAt else { return nil }
        return last + syncInterval
    }

    /// The instant to call ``due(now:wallNow:)`` at: the next progress or the post-slate's end.
    package var nextWake: Milliseconds? {
        [nextProgressAt, playback?.postSlateEndsAt].compactMap(\.self).min()
    }

    // MARK: Inputs

    package mutating func handle(_ input: HeartbeatInput, now: Milliseconds, wallNow: Milliseconds) -> [HeartbeatAction] {
        var actions: [HeartbeatAction] = []
        switch input {
        case .loaded(let options, let streamType):
            actions += end(wallNow: wallNow)
            guard let options, options.flag, let endpoint = settings.endpoint, !endpoint.isEmpty else { break }
            generations += 1
            let isLive = streamType.map { $0 != .vod }
            playback = HeartbeatPlayback(generation: generations, options: options, isLive: isLive)
            if let concurrency = settings.concurrencyEndpoint, !concurrency.isEmpty {
                playback?.concurrencyOpen = true
                actions.append(.send(concurrencyRequest(.start)))
            }
        case .sessionReady(let sessionID):
            playback?.session.ready(sessionID)
        case .playhead(let observation):
            guard playback != nil else { break }
            if playback?.isLive == nil { playback?.isLive = observation.tick.timeline == .programDateTime }
            playback?.lastObservation = observation
            actions += startIfNeeded(now: now, wallNow: wallNow)
            actions += liveEventTimes(observation.tick, now: now)
        case .playerEvent(let event):
            actions += changeState(on: event, now: now, wallNow: wallNow)
        case .playerFailed:
            actions += changeState(to: .error, now: now, wallNow: wallNow)
        case .sessionEnded(let sessionID):
            // The session a new `load` replaces ends after that load: it is not the new playback's.
            guard let playback, playback.session.isEnded(by: sessionID) else { break }
            actions += end(wallNow: wallNow)
        }
        return actions
    }

    /// What is due at `now`: a progress heartbeat, the end of a post-slate.
    package mutating func due(now: Milliseconds, wallNow: Milliseconds) -> [HeartbeatAction] {
        var actions: [HeartbeatAction] = []
        if let next = nextProgressAt, next <= now {
            // Counted from when it was due, not when it went out; a long stall does not queue up a burst.
            let interval = syncInterval
            playback?.lastProgressAt = next + interval > now ? next : now
            actions += heartbeat(.progress, wallNow: wallNow)
        }
        if let ends = playback?.postSlateEndsAt, ends <= now {
            playback?.postSlateEndsAt = nil
            actions += give(.overflowEventEnd)
        }
        return actions
    }

    /// The end of the playback: its `stop` heartbeat and the concurrency stop, if they are due.
    /// Also called when the daemon stops.
    package mutating func end(wallNow: Milliseconds) -> [HeartbeatAction] {
        guard let ending = playback else { return [] }
        var actions: [HeartbeatAction] = []
        if ending.started && !ending.heartbeatStopped {
            playback?.state = .stopped
            actions += heartbeat(.stop, wallNow: wallNow)
        }
        if ending.concurrencyOpen { actions.append(.send(concurrencyRequest(.stop))) }
        playback = nil
        return actions
    }

    // MARK: Heartbeats

    private mutating func startIfNeeded(now: Milliseconds, wallNow: Milliseconds) -> [HeartbeatAction] {
        guard let playback, !playback.started, !playback.heartbeatStopped else { return [] }
        self.playback?.started = true
        self.playback?.lastProgressAt = now
        return heartbeat(.start, wallNow: wallNow)
    }

    private mutating func changeState(on event: PlayerEvent, now: Milliseconds, wallNow: Milliseconds) -> [HeartbeatAction] {
        guard let playback else { return [] }
        let state: HeartbeatPlayState
        switch event {
        case .play: state = .playing
        case .pause: state = .paused
        case .complete: state = .stopped
        case .seekStart, .bufferStart:
            if playback.state != .seeking && playback.state != .buffering { self.playback?.interruptedState = playback.state }
            state = event == .seekStart ? .seeking : .buffering
        case .seekEnd, .bufferEnd:
            state = playback.interruptedState ?? .playing
            self.playback?.interruptedState = nil
        case .rate:
            return []
        }
        if event == .play, !playback.started {
            self.playback?.state = state
            return startIfNeeded(now: now, wallNow: wallNow)
        }
        return changeState(to: state, now: now, wallNow: wallNow)
    }

    private mutating func changeState(to state: HeartbeatPlayState, now: Milliseconds, wallNow: Milliseconds) -> [HeartbeatAction] {
        guard let playback, playback.state != state else { return [] }
        self.playback?.state = state
        guard playback.started, !playback.heartbeatStopped else { return [] }
        return heartbeat(.stateChange, wallNow: wallNow)
    }

    /// A heartbeat of the current playback, and the bookmark it carries to keep.
    private func heartbeat(_ event: HeartbeatEvent, wallNow: Milliseconds) -> [HeartbeatAction] {
        guard let playback, let endpoint = settings.endpoint else { return [] }
        let options = playback.options
        let tick = playback.lastObservation?.tick
        let bookmark = settings.recordBookmark && playback.isLive == false ? playback.lastObservation?.contentPosition : nil
        let body = HeartbeatBody(
            deviceID: deviceID, contentID: options.contentID, catalogType: options.catalogType,
            primaryContentID: options.primaryContentID, sessionID: playback.session.id, event: event, state: playback.state,
            playhead: tick.map(HeartbeatBody.Playhead.init), bookmark: bookmark.map { Double($0) / 1_000 },
            multiStream: settings.multiStreamMode, trackViewersCount: settings.trackViewersCount, ts: wallNow)
        var actions: [HeartbeatAction] = [
            .send(HeartbeatRequest(
                kind: .heartbeat(event), playback: playback.generation, url: endpoint, body: Array(JSONLine.encode(body).utf8),
                token: options.token, playbackHeaders: options.headers)),
        ]
        if let bookmark, let contentID = options.contentID { actions.append(.saveBookmark(contentID: contentID, position: bookmark)) }
        return actions
    }

    private func concurrencyRequest(_ event: ConcurrencyBody.Event) -> HeartbeatRequest {
        let playback = playback!
        let body = ConcurrencyBody(deviceID: deviceID, contentID: playback.options.contentID, event: event)
        return HeartbeatRequest(
            kind: .concurrency(event), playback: playback.generation, url: settings.concurrencyEndpoint ?? "",
            body: Array(JSONLine.encode(body).utf8), token: playback.options.token, playbackHeaders: playback.options.headers)
    }

    // MARK: Notifications

    /// Gives `notification` to the player unless it was given already, or a stop was.
    mutating func give(_ notification: PlayerNotification) -> [HeartbeatAction] {
        guard let playback, !playback.stopGiven else { return [] }
        if case .blackout = notification {
            guard playback.lastBlackout != notification else { return [] }
            self.playback?.lastBlackout = notification
        } else {
            guard self.playback?.given.insert(notification.onceKey).inserted == true else { return [] }
        }
        return [.notify(notification)]
    }

    /// Stops the playback for `reason`: the player is told, and its heartbeat ends.
    mutating func stop(_ reason: PlayerNotification.StopReason) -> [HeartbeatAction] {
        let actions = give(.stopPlayback(reason))
        playback?.heartbeatStopped = true
        return actions
    }
}
