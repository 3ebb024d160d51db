/// What the `beacons` reporter shows of its requests: the last one, its answer, failures in a row
/// and counts by result, taken from the daemon's notifications with the wall-clock time they came.
public struct BeaconsActivity: Sendable, Equatable {
    public private(set) var lastRequest: String?
    public private(set) var lastRequestAt: Milliseconds?
    public private(set) var lastAnswer: String?
    public private(set) var failuresInARow = 0
    /// `sent`, `failed`, `refused`, `notSent` (quiet or disabled), `retried`.
    public private(set) var counters: [String: Int] = [:]

    public init() {}

    /// A fired tracking event finished: one result per signaling URL.
    public mutating func delivered(_ firing: Firing, results: [RequestResult], wallNow: Milliseconds) {
        for result in results { record(event: firing.event.rawValue, result: result, wallNow: wallNow) }
    }

    /// A request did not deliver and will be retried.
    public mutating func retrying(_ delivery: BeaconDelivery, wallNow: Milliseconds) {
        lastRequest = "\(delivery.key.event.rawValue) \(Self.withoutQuery(delivery.key.url))"
        lastRequestAt = wallNow
        lastAnswer = delivery.lastStatus.map(String.init) ?? delivery.lastError ?? "no answer"
        failuresInARow += 1
        counters["retried", default: 0] += 1
    }

    private mutating func record(event: String, result: RequestResult, wallNow: Milliseconds) {
        let counter: String
        switch result.outcome {
        case .answered(let status):
            lastAnswer = String(status)
            counter = HTTPStatus.isSuccess(status) ? "sent" : "failed"
        case .failed(let error):
            lastAnswer = error.description
            counter = "failed"
        case .refused(let reason):
            lastAnswer = "refused: \(reason)"
            counter = "refused"
        case .notSent:
            lastAnswer = "not sent"
            counter = "notSent"
        }
        lastRequest = "\(event) \(Self.withoutQuery(result.url))"
        lastRequestAt = wallNow
        failuresInARow = result.isSuccess ? 0 : failuresInARow + 1
        counters[counter, default: 0] += 1
    }

    /// A URL as shown: its query may carry ids and tokens.
    static func withoutQuery(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }

    /// The `beacons` reporter's status: always configured; `quiet` when it computes and sends nothing.
    public func status(enabled: Bool, quiet: Bool) -> ReporterStatus {
        ReporterStatus(
            name: .beacons, configured: true, enabled: enabled, state: !enabled ? "disabled" : quiet ? "quiet" : "sending",
            lastRequest: lastRequest, lastRequestAt: lastRequestAt, lastAnswer: lastAnswer, failuresInARow: failuresInARow,
            counters: counters)
    }
}
