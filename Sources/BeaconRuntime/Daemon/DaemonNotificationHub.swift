import BeaconDomain

/// The one place where outputs subscribe to what the daemon did. The composition root gives it
/// every subscriber before the daemon starts, so none misses the first notification, and
/// publishing takes no lock.
package struct DaemonNotificationHub: Sendable {
    private let subscribers: [any DaemonNotificationSubscriber]

    package init(_ subscribers: [any DaemonNotificationSubscriber] = []) {
        self.subscribers = subscribers
    }

    /// Tells every subscriber, in the order they were given. The daemon's hub has one caller, the
    /// daemon actor, so each subscriber hears its notifications in order. The hub of what the
    /// reporters told the player is called from their own tasks: its subscribers (history,
    /// metrics, systemd, the player's channel) take overlapping calls.
    package func publish(_ notification: DaemonNotification) {
        for subscriber in subscribers { subscriber.receive(notification) }
    }

    /// The daemon stopped.
    package func finish() {
        for subscriber in subscribers { subscriber.finish() }
    }
}
