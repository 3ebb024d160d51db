import BeaconDomain
import Benchmark
import BenchmarkSchedules

/// A player ticking through a session that retains `events` tracking events, all unfired at
/// first: the worst case for the matcher, every window still indexed. The session lives across
/// samples, so each sample is the steady state of playing on, firing included.
final class TickingPlayer {
    private(set) var session: TrackingSession
    private var playhead: Milliseconds
    private var wallClock: Milliseconds
    private let end: Milliseconds
    private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(events: Int) {
        let document = SyntheticSchedule.document(events: events)
        session = TrackingSession(retention: 30 * 86_400_000)
        _ = session.apply(document)
        end = document.dataRange.end
        playhead = SyntheticSchedule.start - 60_000
        wallClock = 1_700_000_000_000
        _ = session.observe(PlayheadTick(playhead: playhead, observedAt: wallClock), arrivalTime: wallClock)
    }

    /// Plays on by `step` of program time in one tick; past the schedule's end, seeks back to its start.
    func tick(step: Milliseconds) -> Int {
        if playhead + step > end {
            return seek(to: SyntheticSchedule.start - step)
        }
        playhead += step
        wallClock += step
        return session.observe(PlayheadTick(playhead: playhead, observedAt: wallClock), arrivalTime: wallClock).count
    }

    /// Seeks to one of 64 places spread over the schedule, picked pseudo-randomly, and plays 250 ms
    /// from there. A fixed set of places keeps the played stretches as few as a viewer's seeks
    /// within the retention would leave, whatever the number of samples.
    func seekAnywhere() -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let place = Milliseconds((seed >> 11) % 64)
        return seek(to: SyntheticSchedule.start + (end - SyntheticSchedule.start) * place / 64) + tick(step: 250)
    }

    private func seek(to target: Milliseconds) -> Int {
        var fired = session.observe(.seekStart).count
        fired += session.observe(.seekEnd).count
        playhead = target
        wallClock += 1000
        fired += session.observe(PlayheadTick(playhead: playhead, observedAt: wallClock), arrivalTime: wallClock).count
        return fired
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 1000
    )
    let kinds: [(name: String, play: (TickingPlayer) -> Int)] = [
        ("Tick every 250 ms", { $0.tick(step: 250) }),
        ("Tick every 5 s", { $0.tick(step: 5000) }),
        ("Seek", { $0.seekAnywhere() }),
    ]
    for events in [10, 1_000, 100_000] {
        for kind in kinds {
            // Built lazily: a 100 000-event session takes a moment, and `--filter` may skip it.
            var player: TickingPlayer?
            Benchmark("\(kind.name), \(events) events") { benchmark in
                let playing = player ?? TickingPlayer(events: events)
                player = playing
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { blackHole(kind.play(playing)) }
            }
        }
    }
}
