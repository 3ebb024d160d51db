import BeaconDomain

/// A time source that moves only when the test moves it: monotonic instants, wall time and sleeps.
/// A sleep returns once ``advance(to:)`` reaches its instant (at once if it has passed), or throws
/// `CancellationError` when its task is cancelled first. Nothing waits in real time.
package final class ManualTime: Sendable {
    private struct State {
        var now: Milliseconds
        /// Wall time minus the instant.
        var wallOffset: Milliseconds
        /// The instant each sleeping task waits for, by sleep.
        var sleeping: [Int: Milliseconds] = [:]
        var nextID = 0
    }

    private let state: Watched<State>

    package init(now: Milliseconds = 1_000_000, wall: Milliseconds = 1_700_000_000_000) {
        state = Watched(State(now: now, wallOffset: wall - now))
    }

    /// The daemon's view of this time.
    package var source: TimeSource {
        TimeSource(bootID: "manual", instant: { self.now }, wall: { self.wallNow }) { until in try await self.sleep(until: until) }
    }

    package var now: Milliseconds { state.value.now }
    package var wallNow: Milliseconds {
        let state = state.value
        return state.now + state.wallOffset
    }

    /// The instants the sleeping tasks wait for, soonest first.
    package var sleepers: [Milliseconds] { state.value.sleeping.values.sorted() }

    /// Returns once a task sleeps until `instant`: a test moves time on only once the sleep it
    /// means has begun. Woken as sleeps begin, never polled.
    package func waitForSleeper(until instant: Milliseconds) async throws {
        try await waitForSleepers { $0.contains(instant) }
    }

    /// Returns once the instants the sleeping tasks wait for, soonest first, satisfy `condition`.
    package func waitForSleepers(where condition: @escaping @Sendable ([Milliseconds]) -> Bool) async throws {
        try await state.wait { condition($0.sleeping.values.sorted()) }
    }

    /// Moves time on to `instant` (never back) and wakes every sleep due by then.
    package func advance(to instant: Milliseconds) {
        state.withLock { state in
            state.now = max(state.now, instant)
            let now = state.now
            state.sleeping = state.sleeping.filter { $0.value > now }
        }
    }

    package func advance(by duration: Milliseconds) { advance(to: now + duration) }

    package func sleep(until instant: Milliseconds) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            if instant > state.now { state.sleeping[state.nextID] = instant }
            return state.nextID
        }
        defer { state.withLock { $0.sleeping[id] = nil } }
        try await state.wait { $0.now >= instant }
    }
}
