import BeaconDomain

/// Runs `body` until the monotonic instant `deadline` of `time`: its value, or nil when the
/// deadline came first (or the calling task was cancelled). `body` is then cancelled and awaited,
/// so it must return once cancelled. The one race of work against a clock in the runtime.
package func withDeadline<Value: Sendable>(
    _ deadline: Milliseconds, on time: TimeSource, _ body: @escaping @Sendable () async -> Value
) async -> Value? {
    await withTaskGroup(of: Value?.self) { race in
        race.addTask { await body() }
        race.addTask {
            try? await time.sleep(until: deadline)
            return nil
        }
        defer { race.cancelAll() }
        return await race.next() ?? nil
    }
}
