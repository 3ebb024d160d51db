import BeaconDomain
import BeaconRuntime
import BeaconSimulator
import Synchronization

/// The demo's screen: the session as it becomes ready, then one line per finished tracking
/// event and per media-analytics call the simulated Media Collection API answered (pings only
/// counted), and the count of each final state for the summary.
final class DemoScreen: DaemonNotificationSubscriber {
    private let startedAt: Milliseconds
    private let out: @Sendable (String) -> Void
    private let tally = Mutex<[ReportingState: Int]>([:])
    private let pings = Atomic<Int>(0)

    init(startedAt: Milliseconds, out: @escaping @Sendable (String) -> Void) {
        self.startedAt = startedAt
        self.out = out
    }

    /// How many tracking events finished in each state.
    var counts: [ReportingState: Int] { tally.withLock { $0 } }

    /// How many pings the Media Collection API took.
    var pingsTaken: Int { pings.load(ordering: .relaxed) }

    /// A media-analytics call as the simulated Media Collection API answered it, in the beacons' columns.
    func collected(_ exchange: SimulatedMediaCollectionService.Exchange) {
        if exchange.isTaken, exchange.eventType == MediaCollectionEventType.ping.rawValue {
            pings.add(1, ordering: .relaxed)
            return
        }
        let elapsed = UTCTime.formatSpan(exchange.receivedAt - startedAt)
        let outcome = "HTTP \(exchange.status)" + (exchange.reason.map { ": \($0)" } ?? "")
        out("  \(Self.pad(elapsed, 6)) \(Self.pad(exchange.eventType ?? "-", 16)) \(Self.pad("media-analytics", 18)) \(Self.pad(exchange.sessionID ?? "-", 14)) \(outcome)")
    }

    func receive(_ notification: DaemonNotification) {
        switch notification {
        case .sessionReady(let endpoints):
            out("session ready   sessionId \(endpoints.sessionID ?? "-")")
            out("  manifest      \(endpoints.manifestURL)")
            out("  tracking      \(endpoints.trackingURL)")
            out("")
            out("   time  event            ad                 ad break       result")
        case .sessionFailed(_, let reason):
            out("session failed: \(reason)")
        case .beaconsDelivered(let firing, let results, let state):
            tally.withLock { $0[state, default: 0] += 1 }
            let outcome = results.map(Self.describe).joined(separator: ", ")
            let elapsed = UTCTime.formatSpan(WallClock.now() - startedAt)
            out("  \(Self.pad(elapsed, 6)) \(Self.pad(firing.event.rawValue, 16)) \(Self.pad(firing.adID, 18)) \(Self.pad(firing.adBreakID, 14)) \(outcome)")
        default:
            break
        }
    }

    private static func describe(_ result: RequestResult) -> String {
        switch result.outcome {
        case .answered(let status): "HTTP \(status) in \(result.latencyMilliseconds) ms"
        case .failed(let reason): "failed: \(reason)"
        case .refused(let reason): "refused: \(reason)"
        case .notSent(.quiet): "not sent (quiet)"
        case .notSent(.beaconsDisabled): "not sent (beacons disabled)"
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
