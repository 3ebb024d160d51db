/// Decides, from consecutive ticks and player events, which stretches of program time were played.
///
/// The stretch between two ticks counts as played when nothing interrupted playback in between
/// (pause, seek, buffering, completion, an abnormal rate) and the playhead moved forward no
/// faster than real time allows, give or take delivery jitter. A jump ahead is a seek and a move
/// back a rewind: neither counts. Moving slower than real time counts, since every instant in
/// between was shown, only later.
///
/// A pause or buffering holds the playhead still, so when playback resumes at a known time the
/// next stretch counts from the held playhead: a player ticking every few seconds loses nothing.
/// After a seek, completion or an abnormal rate the position is unknown, and the next tick only
/// sets a new baseline.
///
/// A tick carrying `at` is timed on the player's clock, one without on its arrival: the two are
/// never compared. A tick on the other basis than the last one is judged like a seek, a new baseline;
/// so is a tick on another timeline (a position after a program date time, before the session's
/// timeline is known).
package struct PlaybackJudge: Sendable, Equatable {
    /// How the player is doing, as status shows it.
    package enum State: String, Sendable, Equatable {
        case ready, playing, paused, seeking, buffering, completed
    }

    /// Lateness or bunching of tick delivery tolerated on top of real time.
    package static let jitter: Milliseconds = 1000
    /// Relative slack on real time, for clocks and players that drift.
    package static let speedSlack = 0.1
    /// Rates treated as normal playback (live players nudge the rate to keep their latency).
    package static let normalRates: ClosedRange<Double> = 0.9...1.1

    package private(set) var lastPlayhead: Milliseconds?
    private var lastTickTime: Milliseconds?
    private var interrupted = true
    /// Whether the interruption since the last tick was only a pause or buffering.
    private var onlyStalled = false
    /// Whether the last tick carried the player's own clock (`at`) rather than its arrival time.
    private var lastTickOnPlayerClock = false
    private var lastTimeline: Timeline?
    package private(set) var isPaused = false
    package private(set) var isSeeking = false
    package private(set) var isBuffering = false
    package private(set) var isCompleted = false
    package private(set) var rate = 1.0

    package init() {}

    /// The last tick's time when it was on the player's clock: a tick without a time of its own
    /// (an interstitial asset's start) takes it, so that it stays on the same basis as its neighbours.
    package var lastPlayerClockTime: Milliseconds? {
        lastTickOnPlayerClock ? lastTickTime : nil
    }

    package var state: State {
        if isSeeking { return .seeking }
        if isBuffering { return .buffering }
        if isPaused { return .paused }
        if isCompleted { return .completed }
        return lastPlayhead == nil ? .ready : .playing
    }

    private var isPlayingNormally: Bool {
        !isPaused && !isSeeking && !isBuffering && !isCompleted && Self.normalRates.contains(rate)
    }

    /// Takes a tick that arrived at `arrivalTime` and returns the stretch it shows was played, if any.
    package mutating func observe(_ tick: PlayheadTick, arrivalTime: Milliseconds) -> ClosedRange<Milliseconds>? {
        if let reported = tick.rate, reported.isFinite, reported != rate {
            if !Self.normalRates.contains(reported) { interrupted = true }
            rate = reported
        }
        let time = tick.observedAt ?? arrivalTime
        let switchesClock = lastTickTime != nil && (tick.observedAt != nil) != lastTickOnPlayerClock
        let switchesTimeline = lastTimeline != nil && lastTimeline != tick.timeline
        defer {
            lastPlayhead = tick.playhead
            lastTimeline = tick.timeline
            lastTickTime = time
            lastTickOnPlayerClock = tick.observedAt != nil
            interrupted = !isPlayingNormally
            onlyStalled = interrupted && !isSeeking && !isCompleted && Self.normalRates.contains(rate)
        }
        guard !interrupted, !switchesClock, !switchesTimeline, isPlayingNormally, let from = lastPlayhead, let since = lastTickTime else { return nil }
        let advance = tick.playhead - from
        let elapsed = max(0, time - since)
        let allowed = Double(elapsed) * rate * (1 + Self.speedSlack) + Double(Self.jitter)
        guard advance > 0, Double(advance) <= allowed else { return nil }
        return from...tick.playhead
    }

    /// Takes a player event that arrived at `arrivalTime` (if known); returns true when it is a real
    /// change of state (a repeated pause is not).
    @discardableResult
    package mutating func observe(_ event: PlayerEvent, arrivalTime: Milliseconds? = nil) -> Bool {
        switch event {
        case .play:
            let changed = isPaused || isCompleted
            isPaused = false
            isCompleted = false
            resumeStalledPlayback(at: arrivalTime)
            return changed
        case .pause:
            defer { isPaused = true; stall() }
            return !isPaused
        case .bufferStart:
            defer { isBuffering = true; stall() }
            return !isBuffering
        case .bufferEnd:
            let changed = isBuffering
            isBuffering = false
            resumeStalledPlayback(at: arrivalTime)
            return changed
        case .complete:
            defer { isCompleted = true; losePosition() }
            return !isCompleted
        case .seekStart:
            defer { isSeeking = true; losePosition() }
            return !isSeeking
        case .seekEnd:
            defer { isSeeking = false; losePosition() }
            return isSeeking
        case .rate(let newRate):
            guard newRate.isFinite, newRate != rate else { return false }
            rate = newRate
            if !Self.normalRates.contains(newRate) { losePosition() }
            return true
        }
    }

    /// Playback stops with the playhead held where it is.
    private mutating func stall() {
        if !interrupted { onlyStalled = true }
        interrupted = true
    }

    /// Where the playhead will be next is unknown: the next tick is only a baseline.
    private mutating func losePosition() {
        interrupted = true
        onlyStalled = false
    }

    /// After a pause or buffering alone, playback goes on from the held playhead as of `time`.
    /// Only when ticks are judged by arrival time too: a time from another clock cannot be compared.
    private mutating func resumeStalledPlayback(at time: Milliseconds?) {
        guard let time, onlyStalled, isPlayingNormally, lastPlayhead != nil, !lastTickOnPlayerClock else { return }
        interrupted = false
        onlyStalled = false
        lastTickTime = time
    }
}
