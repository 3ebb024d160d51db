import BeaconDomain

/// An output fed by the session, the input lines and the ad timeline (`media-analytics`,
/// `heartbeat`): it hears every ``DaemonNotification`` through the hub, decides with a pure state
/// machine of the domain, and sends on HTTP clients of its own, so it never slows the ad beacons.
///
/// `receive` is called on the daemon's path: it stamps the notification with the time and hands
/// it to the reporter's own task, never waiting.
package protocol Reporter: DaemonNotificationSubscriber {
    var name: ReporterName { get }
    /// Runs the reporter until the daemon finished (``DaemonNotificationSubscriber/finish()``) and
    /// what it had to send at the end (a session's end) went out or the drain timeout passed.
    func run() async
    /// Switches sending on or off at run time; what it knows is kept either way.
    func setEnabled(_ enabled: Bool) async
    /// `--quiet` (and its reload): compute everything, send nothing.
    func setQuiet(_ quiet: Bool) async
    func status() async -> ReporterStatus
}

extension Reporter {
    /// The most notifications waiting for a reporter's task: it may be held by a request up to
    /// its client's timeout while the player goes on. What comes on top is dropped and counted,
    /// so a slow reporter never delays the hub.
    package static var maxWaiting: Int { 4_096 }
}
