import BeaconDomain
import Synchronization

/// The one place where the outputs and the reporters hear what the daemon did and what a reporter
/// told the player. Its promise, whoever publishes (the daemon actor, a reporter's task): each
/// subscriber hears every notification once, one at a time, in one order shared by all of them.
///
/// A subscriber's `receive` hands the notification on (to a bounded queue of its own, counting
/// what it drops, or under a lock of its own) and never publishes, so a publisher waits for no
/// slow subscriber, only for another publisher's fan-out. The composition root subscribes every
/// output and reporter before the daemon starts, so none misses the first notification.
package final class DaemonNotificationHub: Sendable {
    /// Held while a notification goes round: what makes the order one and the calls one at a time.
    private let subscribers: Mutex<[any DaemonNotificationSubscriber]>

    package init(_ subscribers: [any DaemonNotificationSubscriber] = []) {
        self.subscribers = Mutex(subscribers)
    }

    /// Adds subscribers, heard after those already there.
    package func subscribe(_ more: [any DaemonNotificationSubscriber]) {
        subscribers.withLock { $0 += more }
    }

    /// Tells every subscriber, in the order they subscribed.
    package func publish(_ notification: DaemonNotification) {
        subscribers.withLock { subscribers in
            for subscriber in subscribers { subscriber.receive(notification) }
        }
    }

    /// The daemon stopped.
    package func finish() {
        subscribers.withLock { subscribers in
            for subscriber in subscribers { subscriber.finish() }
        }
    }
}
