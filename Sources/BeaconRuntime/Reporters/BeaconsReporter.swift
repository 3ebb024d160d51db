import BeaconDomain
import Synchronization

/// The `beacons` reporter: the daemon fires and delivers the ad beacons; this is their switch and
/// what status shows of their requests.
///
/// Disabled, the tracking events that fire are handled as in quiet mode: their signaling URLs are
/// not requested, each result is `not sent` and the event's reporting state is `done`, so nothing
/// fired while disabled is sent late once enabled again. Requests already under way finish.
package final class BeaconsReporter: Reporter {
    private struct State {
        var enabled = true
        var quiet: Bool
        var activity = BeaconsActivity()
    }

    private let state: Mutex<State>
    private let wallNow: @Sendable () -> Milliseconds
    /// Ends when the daemon finished: what ``run()`` waits for.
    private let daemonFinished: AsyncStream<Void>
    private let daemonFinishing: AsyncStream<Void>.Continuation

    /// - Parameter wallNow: the wall clock, epoch ms: when each request shown was made.
    package init(quiet: Bool, wallNow: @escaping @Sendable () -> Milliseconds) {
        state = Mutex(State(quiet: quiet))
        self.wallNow = wallNow
        (daemonFinished, daemonFinishing) = AsyncStream.makeStream()
    }

    package var name: ReporterName { .beacons }

    /// Read by the daemon as each batch of requests leaves.
    package var isEnabled: Bool { state.withLock { $0.enabled } }

    package func receive(_ notification: DaemonNotification) {
        switch notification {
        case .beaconsDelivered(let firing, let results, _):
            let now = wallNow()
            state.withLock { $0.activity.delivered(firing, results: results, wallNow: now) }
        case .beaconRetrying(let delivery):
            let now = wallNow()
            state.withLock { $0.activity.retrying(delivery, wallNow: now) }
        default:
            break
        }
    }

    package func finish() {
        daemonFinishing.finish()
    }

    /// Nothing of its own to send: the daemon sends the beacons, and drains them. Returns once the
    /// daemon finished, as every reporter does, so that the reporters end after the daemon.
    package func run() async {
        for await _ in daemonFinished {}
    }

    package func setEnabled(_ enabled: Bool) async {
        state.withLock { $0.enabled = enabled }
    }

    /// Shown only: the daemon's configuration is what keeps the beacons quiet.
    package func setQuiet(_ quiet: Bool) async {
        state.withLock { $0.quiet = quiet }
    }

    package func status() async -> ReporterStatus {
        state.withLock { $0.activity.status(enabled: $0.enabled, quiet: $0.quiet) }
    }
}
