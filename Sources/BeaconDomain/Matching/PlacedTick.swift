/// A playhead tick on its session's timeline. Only ``TickPlacement`` makes one, so a tick is
/// placed once, and what takes a `PlacedTick` never compares a position with dates.
public struct PlacedTick: Sendable, Equatable {
    public let tick: PlayheadTick

    init(_ tick: PlayheadTick) {
        self.tick = tick
    }
}
