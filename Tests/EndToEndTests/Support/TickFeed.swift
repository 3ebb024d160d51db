import BeaconDomain
import BeaconRuntime
import BeaconTerminal

/// Input lines for a player on a synthetic wall clock: each tick carries `at`, so the daemon
/// judges speed from it and the lines can be written as fast as the pipe takes them.
struct TickFeed {
    private(set) var playhead: Milliseconds
    private(set) var at: Milliseconds
    private(set) var lines: [String] = []
    /// Whether the ticks are media-time positions (`{"position": s}`) rather than program date times.
    let positions: Bool

    /// A feed whose first tick is at `playhead`: epoch ms, or with `positions` ms from the start of the stream.
    init(from playhead: Milliseconds, at: Milliseconds = 1_700_000_000_000, positions: Bool = false) {
        self.playhead = playhead
        self.at = at
        self.positions = positions
        tick()
    }

    /// A tick at the current playhead and clock.
    mutating func tick() {
        lines.append(positions ? "{\"position\": \(Self.seconds(playhead)), \"at\": \(at)}" : "{\"playhead\": \(playhead), \"at\": \(at)}")
    }

    /// Milliseconds as seconds with three decimals, as a player's `currentTime` is written.
    static func seconds(_ milliseconds: Milliseconds) -> String {
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
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
    var tickCount: Int { lines.filter { $0.hasPrefix("{\"playhead\"") || $0.hasPrefix("{\"position\"") }.count }
}
