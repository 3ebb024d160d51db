/// What the `beacons` reporter shows of its requests: the last one, its answer, failures in a row
/// and counts by result, taken from the daemon's notifications with the wall-clock time they came.
package struct BeaconsActivity: Sendable, Equatable {
    package private(set) var lastRequest: String?
    package private(set) var lastRequestAt: Milliseconds?
    package private(set) var lastAnswer: String?
    package private(set) var failuresInARow = 0
    /// `sent`, `failed`, `refused`, `notSent` (quiet or disabled), `retried`.
    package private(set) var counters: [String: Int] = [:]

    package init() {}

    /// A fired tracking event finished: one result per signaling URL.
    package mutating func delivered(_ firing: Firing, results: [RequestResult], wallNow: Milliseconds) {
        for result in results { record(event: firing.event.rawValue, result: result, wallNow: wallNow) }
    }

    /// A request did not deliver and will be retried.
    package mutating func retrying(_ delivery: BeaconDelivery, wallNow: Milliseconds) {
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
    package func status(enabled: Bool, quiet: Bool) -> ReporterStatus {
        ReporterStatus(
            name: .beacons, configured: true, enabled: enabled, state: !enabled ? "disabled" : quiet ? "quiet" : "sending",
            lastRequest: lastRequest, lastRequestAt: lastRequestAt, lastAnswer: lastAnswer, failuresInARow: failuresInARow,
            counters: counters)
    }
}
