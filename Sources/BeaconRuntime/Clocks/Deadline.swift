import BeaconDomain

/// Runs `body` until the monotonic instant `deadline` of `time`: its value, or nil when the
/// deadline came first (or the calling task was cancelled). `body` is then cancelled and awaited,
/// so it must return once cancelled. The one race of work against a clock in the runtime.
package func withDeadline<Value: Sendable>(
    _ deadline: Milliseconds, on time: TimeSource, _ body: @escaping @Sendable () async -> Value
) async -> Value? {
    await withDeadline({ deadline }, on: time, body)
}

/// As ``withDeadline(_:on:_:)``, for a deadline that may be set while `body` runs (a drain's,
/// which counts from the daemon's finish): `deadline` returns it once it is known, and never
/// returns before when there is none.
package func withDeadline<Value: Sendable>(
    _ deadline: @escaping @Sendable () async -> Milliseconds, on time: TimeSource, _ body: @escaping @Sendable () async -> Value
) async -> Value? {
    await withTaskGroup(of: Value?.self) { race in
        race.addTask { await body() }
        race.addTask {
            let instant = await deadline()
            try? await time.sleep(until: instant)
            return nil
        }
        defer { race.cancelAll() }
        return await race.next() ?? nil
    }
}
