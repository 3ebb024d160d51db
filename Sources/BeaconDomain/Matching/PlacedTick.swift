/// A playhead tick on its session's timeline. Only ``TickPlacement`` makes one, so a tick is
/// placed once, and what takes a `PlacedTick` never compares a position with dates.
package struct PlacedTick: Sendable, Equatable {
    package let tick: PlayheadTick

    init(_ tick: PlayheadTick) {
        self.tick = tick
    }
}
