/// The `beacons` reporter as a reporter's core. The daemon fires and delivers the ad beacons
/// itself; this core only keeps what status shows of their requests (``BeaconsActivity``), and
/// asks for nothing.
package struct BeaconsReporting: ReporterCore {
    /// What the daemon told of a beacon request.
    package enum Input: Sendable {
        case delivered(Firing, results: [RequestResult])
        case retrying(BeaconDelivery)
    }

    package private(set) var activity = BeaconsActivity()

    package init() {}

    package static func input(from notification: DaemonNotification) -> Input? {
        switch notification {
        case .beaconsDelivered(let firing, let results, _): .delivered(firing, results: results)
        case .beaconRetrying(let delivery): .retrying(delivery)
        default: nil
        }
    }

    package mutating func take(_ input: Input, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Never>] {
        switch input {
        case .delivered(let firing, let results): activity.delivered(firing, results: results, wallNow: wallNow)
        case .retrying(let delivery): activity.retrying(delivery, wallNow: wallNow)
        }
        return []
    }

    package mutating func wake(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Never>] { [] }

    package mutating func record(
        _ answer: Never, of effect: Never, now: Milliseconds, wallNow: Milliseconds, using random: inout some RandomNumberGenerator
    ) -> [ReporterAction<Never>] {}

    /// The switch itself is read by the daemon as each batch of requests leaves.
    package mutating func setEnabled(_ enabled: Bool, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Never>] { [] }

    /// The daemon drains its own requests.
    package mutating func end(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Never>] { [] }

    package var nextWake: Milliseconds? { nil }

    package var isSettled: Bool { true }
}
