/// An output of what the daemon did (the event history, metrics, systemd, the demo's screen,
/// the session heartbeat): it hears every ``DaemonNotification`` in the order they happened.
///
/// It hears them on the daemon's own path, one at a time: it must not wait (count, append,
/// hand over to a task of its own).
package protocol DaemonNotificationSubscriber: Sendable {
    func receive(_ notification: DaemonNotification)
    /// The daemon stopped: no notification follows.
    func finish()
}

extension DaemonNotificationSubscriber {
    package func finish() {}
}
