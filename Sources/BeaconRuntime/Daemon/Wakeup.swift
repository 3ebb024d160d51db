import BeaconDomain
import Synchronization

/// Wakes one waiting task: a signal sent while nobody waits is kept for the next wait.
///
/// The delivery timer waits on it for the next retry time and is woken early when sooner work appears.
package final class Wakeup: Sendable {
    private enum State {
        case idle
        case signalled
        case waiting(CheckedContinuation<Void, Never>)
    }

    private let state = Mutex<State>(.idle)

    package init() {}

    package func signal() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            switch state {
            case .waiting(let continuation):
                state = .idle
                return continuation
            case .idle, .signalled:
                state = .signalled
                return nil
            }
        }
        waiter?.resume()
    }

    /// Returns after a signal (one sent before the call counts), or when the task is cancelled.
    package func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if case .signalled = state {
                        state = .idle
                        return true
                    }
                    if Task.isCancelled { return true }
                    state = .waiting(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
                guard case .waiting(let continuation) = state else { return nil }
                state = .idle
                return continuation
            }
            waiter?.resume()
        }
    }

    /// Returns after a signal, once `time` reaches `instant`, or on cancellation, whichever comes first.
    package func wait(until instant: Milliseconds?, on time: TimeSource) async {
        guard let instant else { return await wait() }
        _ = await withDeadline(instant, on: time) { await self.wait() }
    }
}
