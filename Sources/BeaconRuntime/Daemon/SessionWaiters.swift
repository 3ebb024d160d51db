import BeaconDomain

/// The tasks waiting on the session's supervisor: the session runner for the next init and for
/// its session's end, each `load` for its session's init, and stdin until no session is
/// starting. Held by the daemon actor and used on it only, so a wait registers and wakes in turn
/// with the transitions that decide it.
struct SessionWaiters {
    private var nextInit: CheckedContinuation<SessionPhase.Initializing?, Never>?
    private var sessionEnd: CheckedContinuation<Void, Never>?
    private var loads: [Int: [CheckedContinuation<Result<SessionEndpoints, SessionInitError>, Never>]] = [:]
    private var settled: [CheckedContinuation<Void, Never>] = []

    mutating func waitForNextInit(_ waiter: CheckedContinuation<SessionPhase.Initializing?, Never>) { nextInit = waiter }
    mutating func waitForSessionEnd(_ waiter: CheckedContinuation<Void, Never>) { sessionEnd = waiter }
    mutating func waitForSettled(_ waiter: CheckedContinuation<Void, Never>) { settled.append(waiter) }

    /// A `load` waits for the init of the session of `generation`.
    mutating func waitForLoad(generation: Int, _ waiter: CheckedContinuation<Result<SessionEndpoints, SessionInitError>, Never>) {
        loads[generation, default: []].append(waiter)
    }

    /// Wakes whoever waits for what `effect` decided; `isSettled` is the supervisor's, after it.
    /// The effects that wake no one are the daemon's to carry out.
    mutating func wake(for effect: SessionSupervisor.Effect, isSettled: Bool) {
        switch effect {
        case .superseded:
            let replaced = SessionInitError(reason: SessionSupervisor.supersededReason)
            for waiters in loads.values {
                for waiter in waiters { waiter.resume(returning: .failure(replaced)) }
            }
            loads = [:]
            sessionEnd?.resume()
            sessionEnd = nil
        case .initialize(let wanted):
            wakeNextInit(wanted)
        case .stop:
            wakeNextInit(nil)
        case .replyToLoads(let generation, let result):
            for waiter in loads.removeValue(forKey: generation) ?? [] { waiter.resume(returning: result) }
        case .settled:
            guard isSettled else { return }
            for waiter in settled { waiter.resume() }
            settled = []
        case .ended, .retryInit, .gaveUp, .ready, .playPlain:
            break
        }
    }

    private mutating func wakeNextInit(_ wanted: SessionPhase.Initializing?) {
        nextInit?.resume(returning: wanted)
        nextInit = nil
    }
}
