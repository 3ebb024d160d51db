/// The daemon's time, injected as one: the monotonic clock for every schedule and every wait, the
/// wall clock for what is printed.
///
/// `now()` is a monotonic instant (the system's is `CLOCK_BOOTTIME`, milliseconds since boot): retry times, backoff, the
/// beacon max age, the metadata interval, init retries, pruning and tick arrival times are all
/// counted on it, so a step of the wall clock (NTP's first sync at boot, a date set by hand) moves
/// none of them. `sleep(until:)` waits for one of those instants. `wallNow()` (epoch milliseconds)
/// is only for what beacons, logs, history and status show, and for the one input that names a date
/// (`Retry-After` as an HTTP-date).
public struct TimeSource: Sendable {
    /// The boot the instants count from.
    package let bootID: String
    private let instant: @Sendable () -> Milliseconds
    private let wall: @Sendable () -> Milliseconds
    private let sleeper: @Sendable (Milliseconds) async throws -> Void

    /// - Parameter sleep: returns once the instant has come, throws `CancellationError` when the
    ///   task is cancelled first.
    package init(
        bootID: String, instant: @escaping @Sendable () -> Milliseconds, wall: @escaping @Sendable () -> Milliseconds,
        sleep: @escaping @Sendable (_ until: Milliseconds) async throws -> Void
    ) {
        self.bootID = bootID
        self.instant = instant
        self.wall = wall
        self.sleeper = sleep
    }

    /// The monotonic instant now.
    package func now() -> Milliseconds { instant() }

    /// The wall clock now, epoch milliseconds.
    package func wallNow() -> Milliseconds { wall() }

    /// Returns once the monotonic instant `until` has come; throws `CancellationError` if the task
    /// is cancelled before.
    package func sleep(until instant: Milliseconds) async throws {
        try await sleeper(instant)
    }

    /// What to add to an instant to show it on the wall clock as it reads now: one reading for a
    /// whole report, so its times agree with each other.
    package func wallOffset() -> Milliseconds {
        let instant = instant()
        return wall() - instant
    }
}
