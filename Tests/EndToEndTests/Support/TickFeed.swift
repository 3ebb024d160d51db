import BeaconCore

/// Input lines for a player on a synthetic wall clock: each tick carries `at`, so the daemon
/// judges speed from it and the lines can be written as fast as the pipe takes them.
struct TickFeed {
    private(set) var playhead: Milliseconds
    private(set) var at: Milliseconds
    private(set) var lines: [String] = []

    /// A feed whose first tick is at `playhead`.
    init(from playhead: Milliseconds, at: Milliseconds = 1_700_000_000_000) {
        self.playhead = playhead
        self.at = at
        tick()
    }

    /// A tick at the current playhead and clock.
    mutating func tick() {
        lines.append("{\"playhead\": \(playhead), \"at\": \(at)}")
    }

    /// Plays at 1x to `end` (inclusive): playhead and clock advance `step` per tick.
    mutating func play(to end: Milliseconds, step: Milliseconds = 250) {
        while playhead < end {
            let next = min(playhead + step, end)
            at += next - playhead
            playhead = next
            tick()
        }
    }

    /// The next tick lands at `target` (a seek forward or a rewind), `after` ms of clock later.
    mutating func jump(to target: Milliseconds, after: Milliseconds = 250) {
        playhead = target
        at += after
        tick()
    }

    /// Wall-clock time passes without a tick (a pause).
    mutating func wait(_ milliseconds: Milliseconds) {
        at += milliseconds
    }

    /// The lines so far, which the feed then forgets: for sending a feed in parts.
    mutating func takeLines() -> [String] {
        defer { lines = [] }
        return lines
    }

    /// Any other line.
    mutating func line(_ text: String) {
        lines.append(text)
    }

    /// Number of tick lines so far.
    var tickCount: Int { lines.filter { $0.hasPrefix("{\"playhead\"") }.count }
}
