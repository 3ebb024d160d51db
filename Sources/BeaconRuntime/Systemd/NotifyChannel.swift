import BeaconDomain
/// Where service-manager notifications (`READY=1`, `STATUS=...`, `WATCHDOG=1`, `STOPPING=1`) go.
///
/// The real one is ``NotifySocket``; tests capture messages in memory.
package protocol NotifyChannel: Sendable {
    /// Sends one notification: newline-separated `KEY=value` assignments, delivered as one datagram.
    func send(_ message: String)
}
