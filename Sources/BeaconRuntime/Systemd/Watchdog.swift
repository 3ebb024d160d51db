import BeaconDomain
/// The service manager's watchdog, as the environment describes it (`WatchdogSec=` in the unit).
package enum Watchdog {
    /// How often to send `WATCHDOG=1`: half of `$WATCHDOG_USEC`, or nil when there is no watchdog,
    /// its value is unusable, or `$WATCHDOG_PID` names another process (the watchdog is not ours).
    package static func petInterval(environment: [String: String], processID: Int32) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0,
              microseconds <= UInt64(Int64.max) else { return nil }
        if let pid = environment["WATCHDOG_PID"], Int32(pid) != processID { return nil }
        return .microseconds(Int64(microseconds)) / 2
    }
}
