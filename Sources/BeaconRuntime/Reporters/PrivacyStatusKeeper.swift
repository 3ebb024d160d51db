import BeaconDomain
import Logging

/// Keeps the viewer's privacy status across restarts: each `privacy` line the daemon tells is
/// written to the per-box state on a task of its own (a file write never waits on the daemon's
/// path); at start, the reporters are told the status kept, as if the viewer had just said it again.
package final class PrivacyStatusKeeper: DaemonNotificationSubscriber {
    private let state: any ReporterStateStore
    private let logger: Logger
    private let changes: AsyncStream<PrivacyStatus>
    private let input: AsyncStream<PrivacyStatus>.Continuation

    package init(state: any ReporterStateStore, logger: Logger) {
        self.state = state
        self.logger = logger
        (changes, input) = AsyncStream.makeStream()
    }

    /// Tells `reporters` the status kept, if the viewer ever said one, opt-in too (a reporter's
    /// `privacy-default` may be another); before the daemon starts.
    package func restore(to reporters: [any DaemonNotificationSubscriber]) {
        guard let kept = state.privacyStatus() else { return }
        for reporter in reporters { reporter.receive(.playerInformed(.privacy(kept))) }
    }

    package func receive(_ notification: DaemonNotification) {
        if case .playerInformed(.privacy(let status)) = notification { input.yield(status) }
    }

    package func finish() {
        input.finish()
    }

    /// Writes each change until the daemon finished.
    package func run() async {
        for await status in changes {
            do throws(ReporterStateError) {
                try state.setPrivacyStatus(status)
            } catch {
                logger.warning("the privacy status is kept in memory only, until the next start: \(error)")
            }
        }
    }
}
