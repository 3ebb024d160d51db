/// The `beacons` reporter as a reporter's core. The daemon fires and delivers the ad beacons
/// itself; this core only keeps what status shows of their requests (``BeaconsActivity``), and
/// asks for nothing.
public struct BeaconsReporting: ReporterCore {
    /// What the daemon told of a beacon request.
    public enum Input: Sendable {
        case delivered(Firing, results: [RequestResult])
        case retrying(BeaconDelivery)
    }

    public private(set) var activity = BeaconsActivity()

    public init() {}

    public static func input(from notification: DaemonNotification) -> Input? {
        switch notification {
        case .beaconsDelivered(let firing, let results, _): .delivered(firing, results: results)
        case .beaconRetrying(let delivery): .retrying(delivery)
        default: nil
        }
    }

    public mutating func take(_ input: Input, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Never>] {
        switch input {
        case .delivered(let firing, let results): activity.delivered(firing, results: results, wallNow: wallNow)
        case .retrying(let delivery): activity.retrying(delivery, wallNow: wallNow)
        }
        return []
    }

    public mutating func wake(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Never>] { [] }

    public mutating func record(
        _ answer: Never, of effect: Never, now: Milliseconds, wallNow: Milliseconds, using random: inout some RandomNumberGenerator
    ) -> [ReporterAction<Never>] {}

    /// The switch itself is read by the daemon as each batch of requests leaves.
    public mutating func setEnabled(_ enabled: Bool, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Never>] { [] }

    /// The daemon drains its own requests.
    public mutating func end(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Never>] { [] }

    public var nextWake: Milliseconds? { nil }

    public var isSettled: Bool { true }
}
