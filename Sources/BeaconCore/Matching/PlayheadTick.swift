/// One playhead report from the player.
public struct PlayheadTick: Sendable, Equatable {
    /// The program time being shown, epoch milliseconds.
    public var playhead: Milliseconds
    /// When the player observed that playhead (wall clock, epoch milliseconds), if it said so.
    /// It replaces the arrival time for judging playback speed, so recorded ticks replay alike at any speed.
    public var observedAt: Milliseconds?
    /// The playback rate the player reported with this tick.
    public var rate: Double?

    public init(playhead: Milliseconds, observedAt: Milliseconds? = nil, rate: Double? = nil) {
        self.playhead = playhead
        self.observedAt = observedAt
        self.rate = rate
    }
}
