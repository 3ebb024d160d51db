/// One playhead report from the player.
public struct PlayheadTick: Sendable, Equatable {
    /// The time being shown, on `timeline`: epoch milliseconds of program date time, or
    /// milliseconds from the start of the stream (a `position` tick).
    package var playhead: Milliseconds
    /// When the player observed that playhead (wall clock, epoch milliseconds), if it said so.
    /// It replaces the arrival time for judging playback speed, so recorded ticks replay alike at any speed.
    package var observedAt: Milliseconds?
    /// The playback rate the player reported with this tick.
    package var rate: Double?
    /// The timeline `playhead` is counted on: which form the player sent.
    package var timeline: Timeline
    /// The quality keys (`bitrate`, `droppedFrames`, `fps`, `startupTime`) of a JSON tick, kept for the reporters.
    package var quality: QualityOfService?

    public init(playhead: Milliseconds, observedAt: Milliseconds? = nil, rate: Double? = nil, timeline: Timeline = .programDateTime, quality: QualityOfService? = nil) {
        self.playhead = playhead
        self.observedAt = observedAt
        self.rate = rate
        self.timeline = timeline
        self.quality = quality
    }
}
