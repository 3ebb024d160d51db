import Synchronization

/// A test double's state behind a lock, with tasks waiting for a condition on it: each condition is
/// checked when it is asked and after every change, never polled. A wait that never comes true
/// ends when its task is cancelled (a test's time limit).
package final class Watched<Value: Sendable>: Sendable {
    private struct Waiter {
        let condition: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var value: Value
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }

    private let state: Mutex<State>

    package init(_ value: Value) {
        state = Mutex(State(value: value))
    }

    package var value: Value { state.withLock { $0.value } }

    /// Changes the value, then wakes every wait whose condition now holds.
    @discardableResult
    package func withLock<Result: Sendable>(_ change: (inout Value) -> Result) -> Result {
        let (result, ready) = state.withLock { state in
            let result = change(&state.value)
            let value = state.value
            let ready = state.waiters.filter { $0.value.condition(value) }
            for id in ready.keys { state.waiters[id] = nil }
            return (result, ready.values.map(\.continuation))
        }
        for continuation in ready { continuation.resume() }
        return result
    }

    /// Returns once `condition` holds of the value: at once if it does.
    package func wait(until condition: @escaping @Sendable (Value) -> Bool) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if condition(state.value) { return .success(()) }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }
}
