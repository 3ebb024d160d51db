/// What the tracker knows of the playback being reported: one per `load` whose heartbeat `flag` is true.
public struct HeartbeatPlayback: Sendable, Equatable {
    /// Numbers the playbacks of one daemon: outcomes of an earlier one are told apart.
    public let generation: Int
    public let options: HeartbeatOptions
    /// Live or VOD, from the stream type the player gave, else from its first playhead's timeline.
    public var isLive: Bool?
    public var sessionID: String?
    /// The ad-insertion session became ready: a `sessionEnded` from then on is this playback's.
    public var hasSession = false
    /// The `start` heartbeat was decided.
    public var started = false
    /// No heartbeat goes out any more: a stop was given for failures, a rejection or the concurrency limit.
    public var heartbeatStopped = false
    public var state: HeartbeatPlayState = .playing
    /// The state a seek or buffering interrupted, to return to at its end.
    public var interruptedState: HeartbeatPlayState?
    public var lastObservation: PlayheadObservation?
    /// The sync interval the service's last answer asked for.
    public var answeredSyncInterval: Milliseconds?
    /// When the last `start` or `progress` was due: the next is an interval after it.
    public var lastProgressAt: Milliseconds?
    public var failuresInARow = 0
    /// The notifications given, by ``PlayerNotification/onceKey``: each once per playback.
    public var given: Set<String> = []
    /// The last blackout given: a service repeats its decision in every answer.
    public var lastBlackout: PlayerNotification?
    /// When an overflow event's post-slate ends.
    public var postSlateEndsAt: Milliseconds?
    /// The concurrency endpoint was told of the start and not refused: it hears the stop.
    public var concurrencyOpen = false

    public init(generation: Int, options: HeartbeatOptions, isLive: Bool?) {
        self.generation = generation
        self.options = options
        self.isLive = isLive
    }

    /// Whether a stop was given: the player is told nothing more of this playback.
    public var stopGiven: Bool { given.contains { $0.hasPrefix("stopPlayback") } }
}

extension PlayerNotification {
    /// What "given once" counts: the notification's name, and a stop's reason. A blackout is
    /// given again when the decision changes (``HeartbeatPlayback/lastBlackout``).
    var onceKey: String {
        switch self {
        case .stopPlayback(let reason): "stopPlayback.\(reason.rawValue)"
        case .blackout, .liveProgramStart, .liveEventEnd, .overflowEventEnd: name
        }
    }
}
