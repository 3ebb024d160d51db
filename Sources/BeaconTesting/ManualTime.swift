import BeaconDomain

/// A time source that moves only when the test moves it: monotonic instants, wall time and sleeps.
/// A sleep returns once ``advance(to:)`` reaches its instant (at once if it has passed), or throws
/// `CancellationError` when its task is cancelled first. Nothing waits in real time.
package final class ManualTime: Sendable {
    private struct Sleeper {
        let id: Int
        let until: Milliseconds
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Milliseconds
        /// Wall time minus the instant: a wall-clock step changes it, the instants go on.
        var wallOffset: Milliseconds
        var sleepers: [Sleeper] = []
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
    package var sleepers: [Milliseconds] { state.value.sleepers.map(\.until).sorted() }

    /// Returns once a task sleeps until `instant`: a test moves time on only once the sleep it
    /// means has begun. Woken as sleeps begin, never polled.
    package func waitForSleeper(until instant: Milliseconds) async throws {
        try await waitForSleepers { $0.contains(instant) }
    }

    /// Returns once the instants the sleeping tasks wait for, soonest first, satisfy `condition`.
    package func waitForSleepers(where condition: @escaping @Sendable ([Milliseconds]) -> Bool) async throws {
        try await state.wait { condition($0.sleepers.map(\.until).sorted()) }
    }

    /// Moves time on to `instant` (never back) and wakes every sleep due by then.
    package func advance(to instant: Milliseconds) {
        let due: [Sleeper] = state.withLock { state in
            state.now = max(state.now, instant)
            let now = state.now
            let due = state.sleepers.filter { $0.until <= now }
            state.sleepers.removeAll { $0.until <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    package func advance(by duration: Milliseconds) { advance(to: now + duration) }

    package func sleep(until instant: Milliseconds) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let result: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if instant <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, until: instant, continuation: continuation))
                    return nil
                }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }
}
