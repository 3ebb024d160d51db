import BeaconDomain
import Synchronization

/// Tells the service manager that the daemon is ready, what it is doing, that it is alive, and
/// that it is stopping (see ``NotifyPolicy``).
///
/// ``probeUntilCancelled(_:)`` asks the daemon for a status report every
/// ``NotifyPolicy/probePeriod`` and pets the watchdog only once the answer came: a daemon that
/// hangs stops the petting, so the service manager restarts it. It subscribes to the daemon's
/// notifications.
package final class SystemdNotifier<C: Clock>: DaemonNotificationSubscriber where C.Duration == Duration {
    private let channel: any NotifyChannel
    private let clock: C
    private let policy: Mutex<NotifyPolicy>
    private let probePeriod: Duration

    /// - Parameter petInterval: how often `WATCHDOG=1` is due
    ///   (``Watchdog/petInterval(environment:processID:)``); nil without a watchdog.
    package init(channel: any NotifyChannel, petInterval: Duration?, clock: C) {
        self.channel = channel
        self.clock = clock
        let policy = NotifyPolicy(petInterval: petInterval)
        self.probePeriod = policy.probePeriod
        self.policy = Mutex(policy)
    }

    /// Sends `STOPPING=1` as soon as the drain begins; other notifications are not its business.
    package func receive(_ notification: DaemonNotification) {
        guard case .drainStarted(let inFlight) = notification else { return }
        channel.send(policy.withLock { $0.drainStarted(inFlight: inFlight) })
    }

    /// Probes the daemon with `probe` and notifies, until the task is cancelled.
    package func probeUntilCancelled(_ probe: @Sendable () async -> StatusReport) async {
        let start = clock.now
        while !Task.isCancelled {
            let report = await probe()
            let elapsed = start.duration(to: clock.now)
            if let message = policy.withLock({ $0.answered(report, at: elapsed) }) { channel.send(message) }
            do { try await clock.sleep(for: probePeriod) } catch { return }
        }
    }
}
