import BeaconDomain

/// The one place where outputs subscribe to what the daemon did. The composition root gives it
/// every subscriber before the daemon starts, so none misses the first notification, and
/// publishing takes no lock.
package struct DaemonNotificationHub: Sendable {
    private let subscribers: [any DaemonNotificationSubscriber]

    package init(_ subscribers: [any DaemonNotificationSubscriber] = []) {
        self.subscribers = subscribers
    }

    /// Tells every subscriber, in the order they were given. One caller at a time (the daemon
    /// actor), so each subscriber hears the notifications in order.
    package func publish(_ notification: DaemonNotification) {
        for subscriber in subscribers { subscriber.receive(notification) }
    }

    /// The daemon stopped.
    package func finish() {
        for subscriber in subscribers { subscriber.finish() }
    }
}
