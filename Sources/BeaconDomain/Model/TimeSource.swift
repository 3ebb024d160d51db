/// The daemon's two clocks, injected together: the monotonic one for every schedule, the wall
/// clock for what is printed.
///
/// `now()` is a monotonic instant (the system's is `CLOCK_BOOTTIME`, milliseconds since boot): retry times, backoff, the
/// beacon max age, the metadata interval, init retries, pruning and tick arrival times are all
/// counted on it, so a step of the wall clock (NTP's first sync at boot, a date set by hand) moves
/// none of them. `wallNow()` (epoch milliseconds) is only for what beacons, logs, history and status
/// show, and for the one input that names a date (`Retry-After` as an HTTP-date).
public struct TimeSource: Sendable {
    /// The boot the instants count from.
    public let bootID: String
    private let instant: @Sendable () -> Milliseconds
    private let wall: @Sendable () -> Milliseconds

    public init(bootID: String, instant: @escaping @Sendable () -> Milliseconds, wall: @escaping @Sendable () -> Milliseconds) {
        self.bootID = bootID
        self.instant = instant
        self.wall = wall
    }

    /// The monotonic instant now.
    public func now() -> Milliseconds { instant() }

    /// The wall clock now, epoch milliseconds.
    public func wallNow() -> Milliseconds { wall() }

    /// What to add to an instant to show it on the wall clock as it reads now: one reading for a
    /// whole report, so its times agree with each other.
    public func wallOffset() -> Milliseconds {
        let instant = instant()
        return wall() - instant
    }
}
