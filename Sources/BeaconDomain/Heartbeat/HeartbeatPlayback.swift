/// What the tracker knows of the playback being reported: one per `load` whose heartbeat `flag` is true.
package struct HeartbeatPlayback: Sendable, Equatable {
    /// Numbers the playbacks of one daemon: outcomes of an earlier one are told apart.
    package let generation: Int
    package let options: HeartbeatOptions
    /// Live or VOD, from the stream type the player gave, else from its first playhead's timeline.
    package var isLive: Bool?
    /// The ad-insertion session it was loaded into, once ready: its id goes in every heartbeat.
    package var session = LoadedSession()
    /// The `start` heartbeat was decided.
    package var started = false
    /// No heartbeat goes out any more: a stop was given for failures, a rejection or the concurrency limit.
    package var heartbeatStopped = false
    package var state: HeartbeatPlayState = .playing
    /// The state a seek or buffering interrupted, to return to at its end.
    package var interruptedState: HeartbeatPlayState?
    package var lastObservation: PlayheadObservation?
    /// The sync interval the service's last answer asked for.
    package var answeredSyncInterval: Milliseconds?
    /// When the last `start` or `progress` was due: the next is an interval after it.
    package var lastProgressAt: Milliseconds?
    package var failuresInARow = 0
    /// The notifications given, by ``PlayerNotification/onceKey``: each once per playback.
    package var given: Set<String> = []
    /// The last blackout given: a service repeats its decision in every answer.
    package var lastBlackout: PlayerNotification?
    /// When an overflow event's post-slate ends.
    package var postSlateEndsAt: Milliseconds?
    /// The concurrency endpoint was told of the start and not refused: it hears the stop.
    package var concurrencyOpen = false

    package init(generation: Int, options: HeartbeatOptions, isLive: Bool?) {
        self.generation = generation
        self.options = options
        self.isLive = isLive
    }

    /// Whether a stop was given: the player is told nothing more of this playback.
    package var stopGiven: Bool { given.contains { $0.hasPrefix("stopPlayback") } }
}

extension PlayerNotification {
    /// What "given once" counts: the notification's name, and a stop's reason. A blackout is
    /// given again when the decision changes (``HeartbeatPlayback/lastBlackout``).
    var onceKey: String {
        switch self {
        case .stopPlayback(let reason): "stopPlayback.\(reason.rawValue)"
        case .blackout, .liveProgramStart, .liveEventEnd, .overflowEventEnd, .analyticsError: name
        }
    }
}
