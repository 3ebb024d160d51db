/// An output of what the daemon did (the event history, metrics, systemd, the demo's screen, a
/// reporter): it hears every ``DaemonNotification`` once, one at a time, in the order the hub
/// gives every subscriber.
///
/// It hears them on the publisher's path: it must not wait (count, append, hand over to a bounded
/// queue of its own, counting what it drops), and must not publish from `receive`.
package protocol DaemonNotificationSubscriber: Sendable {
    func receive(_ notification: DaemonNotification)
    /// The daemon stopped: no notification follows.
    func finish()
}

extension DaemonNotificationSubscriber {
    package func finish() {}
}
