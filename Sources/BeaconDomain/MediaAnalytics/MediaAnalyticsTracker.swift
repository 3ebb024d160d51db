/// Decides which Media Collection events a playback makes, and when, from what the daemon tells:
/// a pure state machine that takes the time as input (`now` monotonic, `wallNow` epoch
/// milliseconds) and returns the events, each with its tracking session's number.
///
/// A tracking session begins on the first `play`, or the first tick at normal rate, after a
/// `load`; it ends on `complete` (`sessionComplete`), an unload, another load, shutdown, opt-out or
/// disabling (`sessionEnd`). A player error, or content Adobe's SDKs refuse (see
/// ``invalidContentReason(_:)``), puts it in the error state until the next load.
package struct MediaAnalyticsTracker: Sendable {
    /// What one input produced: events to send, refusals to log as warnings, and what the player
    /// is to be told.
    package struct Output: Sendable, Equatable {
        package var emissions: [MediaCollectionEmission] = []
        package var warnings: [String] = []
        package var notifications: [PlayerNotification] = []

        package init(emissions: [MediaCollectionEmission] = [], warnings: [String] = [], notifications: [PlayerNotification] = []) {
            self.emissions = emissions
            self.warnings = warnings
            self.notifications = notifications
        }
    }

    /// The back end closes a session after this long without an event...
    package static let idleTimeout: Milliseconds = 10 * 60_000
    /// ...and after this long without playhead movement.
    package static let stillTimeout: Milliseconds = 30 * 60_000
    /// beaconctl starts a new session after this long in one.
    package static let longestSession: Milliseconds = 24 * 3_600_000
    /// Events held while the viewer's consent is unknown.
    package static let heldCapacity = 500

    enum Activity: Sendable, Equatable { case playing, paused, seeking, buffering }

    struct Playback: Sendable {
        var mediaURL: String
        var content: ContentInformation
        /// The daemon's session this playback was loaded into: only its end ends the playback.
        var session = LoadedSession()
        var activity: Activity?
        /// Whether a seek or buffering began while paused: its end goes back to the pause, not to play.
        var pausedBeneath = false
        var adBreak: AdBreakSummary?
        var ad: AdSummary?
        var chapter: Chapter?
        /// Player states started and not ended, in order.
        var states: [String] = []
        var quality = QualityOfService()
        var inErrorState = false
        var completed = false
        /// The last content position, seconds (VOD playhead).
        var contentSeconds: Double?
        /// The last tick's program date time, epoch milliseconds (live playhead).
        var programDateTime: Milliseconds?
        var lastMovedAt: Milliseconds?
    }

    struct OpenSession: Sendable {
        var number: Int
        var startedAt: Milliseconds
        var lastEventAt: Milliseconds
        var nextPingAt: Milliseconds?
        /// Whether its `sessionStart` left the consent hold (or never was in it).
        var released: Bool
    }

    package let reporting: MediaCollectionParameters.Reporting
    /// The setting's default until a `privacy` line, or the status kept from one, says otherwise.
    package private(set) var privacy: PrivacyStatus
    package private(set) var isEnabled = true
    /// Held events given up: over the hold's capacity, or on opt-out.
    package private(set) var droppedWhileHeld = 0
    var playback: Playback?
    var session: OpenSession?
    var held: [MediaCollectionEmission] = []
    private var sessionsStarted = 0
    private var lastTS: Milliseconds = 0

    package init(reporting: MediaCollectionParameters.Reporting) {
        self.reporting = reporting
        privacy = reporting.settings.privacyDefault
    }

    /// The open session's number, if one is open.
    package var sessionNumber: Int? { session?.number }
    package var isInErrorState: Bool { playback?.inErrorState ?? false }
    package var heldCount: Int { held.count }
    /// When ``pingDue(now:wallNow:)`` has a ping to make.
    package var nextPingAt: Milliseconds? { session?.nextPingAt }

    // MARK: - Inputs

    package mutating func receive(_ notification: DaemonNotification, now: Milliseconds, wallNow: Milliseconds) -> Output {
        var output = Output()
        switch notification {
        case .playbackLoaded(let mediaURL, let options):
            end(.sessionEnd, now: now, wallNow: wallNow, into: &output)
            playback = Playback(mediaURL: mediaURL, content: options.content ?? ContentInformation())
            if let content = options.content { check(content, into: &output) }
        case .sessionReady(let endpoints):
            playback?.session.ready(endpoints.sessionID)
        case .sessionEnded(let sessionID):
            guard let playback, playback.session.isEnded(by: sessionID) else { break }
            end(.sessionEnd, now: now, wallNow: wallNow, into: &output)
            self.playback = nil
        case .playheadObserved(let observation):
            observe(observation, now: now, wallNow: wallNow, into: &output)
        case .playerEventObserved(let event):
            guard admits("\(event)", into: &output) else { break }
            handle(event, now: now, wallNow: wallNow, into: &output)
        case .userActionObserved(let action):
            switch action {
            case .mute: changeState("mute", started: true, now: now, wallNow: wallNow, into: &output)
            case .unmute: changeState("mute", started: false, now: now, wallNow: wallNow, into: &output)
            case .expand: changeState("fullscreen", started: true, now: now, wallNow: wallNow, into: &output)
            case .collapse: changeState("fullscreen", started: false, now: now, wallNow: wallNow, into: &output)
            case .skip, .rewind, .click: break
            }
        case .playerInformed(let information):
            inform(information, now: now, wallNow: wallNow, into: &output)
        case .adLifecycle(let event):
            guard admits("ad lifecycle", into: &output) else { break }
            handle(event, now: now, wallNow: wallNow, into: &output)
        case .sessionStarting, .sessionFailed, .metadataApplied, .adBreaksDiscovered, .metadataUnchanged,
            .metadataFailed, .lineRejected, .beaconsDue, .beaconsDelivered, .beaconRetrying, .drainStarted, .drainTimedOut,
            .playerNotified, .heartbeatFailing, .interstitialStarted, .interstitialEnded:
            break
        }
        return output
    }

    /// The ping that is due by `now`, and a new session after ``longestSession``.
    package mutating func pingDue(now: Milliseconds, wallNow: Milliseconds) -> Output {
        var output = Output()
        guard let open = session, let due = open.nextPingAt, now >= due else { return output }
        if now - open.startedAt >= Self.longestSession {
            end(.sessionEnd, now: now, wallNow: wallNow, into: &output)
            start(resume: true, now: now, wallNow: wallNow, into: &output)
            return output
        }
        emit(.ping, now: now, wallNow: wallNow, into: &output)
        schedulePing(after: now)
        return output
    }

    /// The back end answered 404 or 410 to an event of session `number`: it is gone. A new one
    /// resumes it (`media.resume`) with the playback's current state.
    package mutating func sessionGone(_ number: Int, now: Milliseconds, wallNow: Milliseconds) -> Output {
        var output = Output()
        guard session?.number == number else { return output }
        session = nil
        start(resume: true, now: now, wallNow: wallNow, into: &output)
        return output
    }

    /// Disabling ends the open session; enabled again, the next play or tick starts a new one.
    package mutating func setEnabled(_ enabled: Bool, now: Milliseconds, wallNow: Milliseconds) -> Output {
        var output = Output()
        if !enabled { end(.sessionEnd, now: now, wallNow: wallNow, into: &output) }
        isEnabled = enabled
        return output
    }

    /// The daemon stops: the open session ends.
    package mutating func shutdown(now: Milliseconds, wallNow: Milliseconds) -> Output {
        var output = Output()
        end(.sessionEnd, now: now, wallNow: wallNow, into: &output)
        return output
    }

    // MARK: - Playback

    private mutating func observe(_ observation: PlayheadObservation, now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        guard var current = playback else { return }
        let tick = observation.tick
        let seconds = observation.contentPosition.map { Double($0) / 1000 }
            ?? (tick.timeline == .mediaTime ? Double(tick.playhead) / 1000 : current.contentSeconds)
        let programDateTime = tick.timeline == .programDateTime ? tick.playhead : current.programDateTime
        if seconds != current.contentSeconds || programDateTime != current.programDateTime || current.lastMovedAt == nil {
            current.lastMovedAt = now
        }
        current.contentSeconds = seconds
        current.programDateTime = programDateTime
        playback = current
        if let quality = tick.quality, !current.inErrorState {
            changeQuality(quality, now: now, wallNow: wallNow, into: &output)
        }
        let normalRate = tick.rate.map { $0 == 1 } ?? true
        if session == nil, normalRate, canStart {
            playback?.activity = .playing
            start(resume: false, now: now, wallNow: wallNow, into: &output)
        }
    }

    private mutating func handle(_ event: PlayerEvent, now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        switch event {
        case .play:
            resume(now: now, wallNow: wallNow, into: &output)
        case .pause:
            interrupt(.paused, with: .pauseStart, now: now, wallNow: wallNow, into: &output)
        case .seekStart:
            interrupt(.seeking, with: .pauseStart, now: now, wallNow: wallNow, into: &output)
        case .bufferStart:
            interrupt(.buffering, with: .bufferStart, now: now, wallNow: wallNow, into: &output)
        case .seekEnd:
            endInterruption(.seeking, now: now, wallNow: wallNow, into: &output)
        case .bufferEnd:
            endInterruption(.buffering, now: now, wallNow: wallNow, into: &output)
        case .rate(let rate):
            if rate == 0 {
                interrupt(.paused, with: .pauseStart, now: now, wallNow: wallNow, into: &output)
            } else if session != nil, playback?.activity != .playing {
                resume(now: now, wallNow: wallNow, into: &output)
            }
        case .complete:
            guard session != nil else { break }
            end(.sessionComplete, now: now, wallNow: wallNow, into: &output)
            playback?.completed = true
        }
    }

    /// Playback starts or goes on: the session starts, or `play` is sent, in a new session when
    /// the back end has closed the old one meanwhile.
    private mutating func resume(now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        guard playback != nil else { return }
        let wasPlaying = playback?.activity == .playing
        playback?.activity = .playing
        playback?.pausedBeneath = false
        guard let open = session else {
            if canStart { start(resume: false, now: now, wallNow: wallNow, into: &output) }
            return
        }
        guard !wasPlaying else { return }
        let still = playback?.lastMovedAt.map { now - $0 } ?? 0
        if now - open.lastEventAt >= Self.idleTimeout || still >= Self.stillTimeout {
            // The back end closed it; a sessionEnd would only be refused.
            session = nil
            start(resume: true, now: now, wallNow: wallNow, into: &output)
            return
        }
        emit(.play, now: now, wallNow: wallNow, into: &output)
        schedulePing(after: now)
    }

    private mutating func interrupt(
        _ activity: Activity, with type: MediaCollectionEventType, now: Milliseconds, wallNow: Milliseconds, into output: inout Output
    ) {
        // Before playback started there is nothing to interrupt.
        guard let previous = playback?.activity, previous != activity else { return }
        let wasInterrupted = previous != .playing
        let pausedBeneath = activity != .paused && (previous == .paused || (wasInterrupted && playback?.pausedBeneath == true))
        playback?.pausedBeneath = pausedBeneath
        playback?.activity = activity
        // Pings keep a playing session alive; a paused one is left to the back end's timeouts.
        session?.nextPingAt = nil
        if !(wasInterrupted && type == .pauseStart) { emit(type, now: now, wallNow: wallNow, into: &output) }
    }

    /// A seek or buffering ended: playback goes on, or goes back to the pause it began in.
    private mutating func endInterruption(_ interruption: Activity, now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        guard session != nil, playback?.activity == interruption else { return }
        guard playback?.pausedBeneath == true else { return resume(now: now, wallNow: wallNow, into: &output) }
        playback?.activity = .paused
        playback?.pausedBeneath = false
        if interruption == .buffering { emit(.pauseStart, now: now, wallNow: wallNow, into: &output) }
    }

    private mutating func handle(_ event: AdLifecycleEvent, now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        guard playback != nil else { return }
        switch event {
        case .adBreakStarted(let adBreak):
            playback?.adBreak = adBreak
            emit(.adBreakStart, params: MediaCollectionParameters.adBreakStart(adBreak), now: now, wallNow: wallNow, into: &output)
        case .adStarted(let ad):
            playback?.ad = ad
            emitAdStart(ad, now: now, wallNow: wallNow, into: &output)
            reschedulePing(now: now)
        case .adCompleted:
            playback?.ad = nil
            emit(.adComplete, now: now, wallNow: wallNow, into: &output)
        case .adSkipped:
            playback?.ad = nil
            emit(.adSkip, now: now, wallNow: wallNow, into: &output)
        case .adBreakCompleted:
            playback?.ad = nil
            playback?.adBreak = nil
            emit(.adBreakComplete, now: now, wallNow: wallNow, into: &output)
            // The content resumes, as Adobe's timelines report it: after a seek out of the break too.
            if playback?.activity == .playing { emit(.play, now: now, wallNow: wallNow, into: &output) }
            reschedulePing(now: now)
        }
    }

    private mutating func inform(_ information: PlayerInformation, now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        switch information {
        case .privacy(let status):
            changePrivacy(status, now: now, wallNow: wallNow, into: &output)
            return
        case .content(let content):
            guard playback != nil, admits("content", into: &output) else { return }
            playback?.content = content
            check(content, into: &output)
            return
        case .notice:
            return
        default:
            break
        }
        guard admits("\(information)", into: &output), playback != nil else { return }
        switch information {
        case .chapterStart(let chapter):
            if playback?.chapter != nil { emit(.chapterComplete, now: now, wallNow: wallNow, into: &output) }
            playback?.chapter = chapter
            emit(.chapterStart, params: MediaCollectionParameters.chapterStart(chapter), now: now, wallNow: wallNow, into: &output)
        case .chapterEnd, .chapterSkip:
            guard playback?.chapter != nil else { return }
            playback?.chapter = nil
            emit(information == .chapterEnd ? .chapterComplete : .chapterSkip, now: now, wallNow: wallNow, into: &output)
        case .quality(let quality):
            changeQuality(quality, now: now, wallNow: wallNow, into: &output)
        case .error(let error):
            emit(.error, qoeData: MediaCollectionParameters.error(error), now: now, wallNow: wallNow, into: &output)
            if error.source == .player {
                playback?.inErrorState = true
                session?.nextPingAt = nil
            }
        case .stateStart(let name):
            changeState(name, started: true, now: now, wallNow: wallNow, into: &output)
        case .stateEnd(let name):
            changeState(name, started: false, now: now, wallNow: wallNow, into: &output)
        case .privacy, .content, .notice:
            break
        }
    }

    private mutating func changeQuality(_ quality: QualityOfService, now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        guard var merged = playback?.quality else { return }
        let previousBitrate = merged.bitrate
        merged.bitrate = quality.bitrate ?? merged.bitrate
        merged.droppedFrames = quality.droppedFrames ?? merged.droppedFrames
        merged.fps = quality.fps ?? merged.fps
        merged.startupTime = quality.startupTime ?? merged.startupTime
        playback?.quality = merged
        guard let bitrate = merged.bitrate, bitrate != previousBitrate else { return }
        emit(.bitrateChange, now: now, wallNow: wallNow, into: &output)
    }

    private mutating func changeState(_ name: String, started: Bool, now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        guard let states = playback?.states, !(playback?.inErrorState ?? true) else {
            if playback != nil { output.warnings.append(refusal("state \(name)")) }
            return
        }
        guard states.contains(name) != started else { return }
        if started { playback?.states.append(name) } else { playback?.states.removeAll { $0 == name } }
        emit(started ? .stateStart : .stateEnd, params: MediaCollectionParameters.state(name), now: now, wallNow: wallNow, into: &output)
    }

    private mutating func changePrivacy(_ status: PrivacyStatus, now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        switch status {
        case .optIn:
            output.emissions += held
            held = []
            session?.released = true
        case .unknown:
            break
        case .optOut:
            droppedWhileHeld += held.count
            held = []
            if session?.released == true {
                privacy = .optIn
                end(.sessionEnd, now: now, wallNow: wallNow, into: &output)
            }
            session = nil
        }
        privacy = status
    }

    // MARK: - Sessions

    private var canStart: Bool {
        guard let playback else { return false }
        return isEnabled && privacy != .optOut && !playback.inErrorState && !playback.completed
    }

    private var pingInterval: Milliseconds {
        let settings = reporting.settings
        return max(playback?.ad != nil ? settings.adPingInterval.milliseconds : settings.pingInterval.milliseconds, 1)
    }

    /// Opens a session and reports the playback's state in it: the open ad break and ad, chapter
    /// and player states, then play (or the interruption it is in).
    private mutating func start(resume: Bool, now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        guard let current = playback, canStart else { return }
        sessionsStarted += 1
        session = OpenSession(
            number: sessionsStarted, startedAt: now, lastEventAt: now, nextPingAt: nil, released: privacy == .optIn)
        let start = MediaCollectionParameters.sessionStart(
            reporting: reporting, content: current.content, mediaURL: current.mediaURL, resume: resume)
        emit(.sessionStart, params: start.params, customMetadata: start.customMetadata, now: now, wallNow: wallNow, into: &output)
        if let adBreak = current.adBreak {
            emit(.adBreakStart, params: MediaCollectionParameters.adBreakStart(adBreak), now: now, wallNow: wallNow, into: &output)
            if let ad = current.ad { emitAdStart(ad, now: now, wallNow: wallNow, into: &output) }
        }
        if let chapter = current.chapter {
            emit(.chapterStart, params: MediaCollectionParameters.chapterStart(chapter), now: now, wallNow: wallNow, into: &output)
        }
        for name in current.states {
            emit(.stateStart, params: MediaCollectionParameters.state(name), now: now, wallNow: wallNow, into: &output)
        }
        switch current.activity {
        case .playing, nil:
            emit(.play, now: now, wallNow: wallNow, into: &output)
            schedulePing(after: now)
        case .paused, .seeking:
            emit(.pauseStart, now: now, wallNow: wallNow, into: &output)
        case .buffering:
            emit(.bufferStart, now: now, wallNow: wallNow, into: &output)
        }
    }

    private mutating func end(_ type: MediaCollectionEventType, now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        guard session != nil else { return }
        emit(type, now: now, wallNow: wallNow, into: &output)
        session = nil
    }

    private mutating func reschedulePing(now: Milliseconds) {
        guard session?.nextPingAt != nil else { return }
        schedulePing(after: now)
    }

    private mutating func schedulePing(after now: Milliseconds) {
        let interval = pingInterval
        session?.nextPingAt = now + interval
    }

    // MARK: - Events

    private mutating func emitAdStart(_ ad: AdSummary, now: Milliseconds, wallNow: Milliseconds, into output: inout Output) {
        let start = MediaCollectionParameters.adStart(ad, playerName: reporting.settings.playerName)
        emit(.adStart, params: start.params, customMetadata: start.customMetadata, now: now, wallNow: wallNow, into: &output)
    }

    /// Makes one event of the open session, if any: its `ts` at least 1 ms after the last one's,
    /// its `qoeData` the quality the player last told (as Adobe's SDKs send it with every call)
    /// under the event's own.
    private mutating func emit(
        _ type: MediaCollectionEventType, params: [String: MediaCollectionValue] = [:],
        qoeData: [String: MediaCollectionValue] = [:], customMetadata: [String: String] = [:],
        now: Milliseconds, wallNow: Milliseconds, into output: inout Output
    ) {
        guard let open = session, isEnabled, privacy != .optOut else { return }
        let ts = max(wallNow, lastTS + 1)
        lastTS = ts
        session?.lastEventAt = now
        let quality = playback.map { MediaCollectionParameters.quality($0.quality) } ?? [:]
        let event = MediaCollectionEvent(
            type: type, playhead: playhead(wallNow: wallNow), ts: ts, params: params,
            qoeData: quality.merging(qoeData) { _, own in own },
            customMetadata: customMetadata)
        let emission = MediaCollectionEmission(session: open.number, event: event)
        if privacy == .unknown {
            droppedWhileHeld += held.append(emission, capacity: Self.heldCapacity)
        } else {
            output.emissions.append(emission)
        }
    }

    /// `playerTime.playhead`: the content position in seconds for VOD, ads excluded; for live and
    /// linear streams the second of the UTC day, as Adobe prescribes, of the program date time
    /// shown (the wall clock when the ticks carry none).
    func playhead(wallNow: Milliseconds) -> Double {
        guard let playback else { return 0 }
        switch MediaCollectionParameters.streamType(of: playback.content) {
        case .vod:
            return max(playback.contentSeconds ?? 0, 0)
        case .live, .linear:
            let day: Milliseconds = 86_400_000
            let instant = playback.programDateTime ?? wallNow
            return Double((instant % day + day) % day) / 1000
        }
    }

    /// Why Adobe's SDKs would refuse `content` as the playback's media: a media object without an
    /// id, a VOD without a length. nil when it is valid. A load without any content is not
    /// refused: beaconctl names the media after its URL and reports it as live.
    package static func invalidContentReason(_ content: ContentInformation) -> String? {
        if content.id?.isEmpty ?? true { return "the content has no id" }
        if content.streamType == .vod, (content.length ?? 0) <= 0 { return "a VOD's content has no length" }
        return nil
    }

    /// Enters the error state when `content` is invalid, and tells the player why.
    private mutating func check(_ content: ContentInformation, into output: inout Output) {
        guard let reason = Self.invalidContentReason(content) else { return }
        playback?.inErrorState = true
        session?.nextPingAt = nil
        output.notifications.append(.analyticsError(reason: reason))
    }

    /// Whether tracking may go on: in the error state it is refused until the next load.
    private func admits(_ what: String, into output: inout Output) -> Bool {
        guard playback?.inErrorState == true else { return true }
        output.warnings.append(refusal(what))
        return false
    }

    private func refusal(_ what: String) -> String {
        "media-analytics: \(what) refused in the error state; the next load leaves it"
    }
}
