import BeaconDomain
import CoreMetrics
import Synchronization

/// The reporters' metrics, read from each one's ``ReporterStatus`` at each scrape, the reporter's
/// name as a label: whether it is configured and enabled, its failures in a row, and its counters
/// as `beaconctl_reporter_requests_total{reporter, result}` (`result` is the counter's name).
final class ReporterMetrics: Sendable {
    enum Name {
        static let requests = "beaconctl_reporter_requests_total"
        static let enabled = "beaconctl_reporter_enabled"
        static let configured = "beaconctl_reporter_configured"
        static let failuresInARow = "beaconctl_reporter_failures_in_a_row"
    }

    /// The most counters exported per reporter: a reporter's counter names are its own, so the
    /// number of series stays bounded whatever it counts.
    static let maxCountersPerReporter = 16

    private let factory: any MetricsFactory
    /// Each counter's value at the last scrape, by reporter and name: the metric grows by the difference.
    private let seen = Mutex<[String: Int]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func observe(_ reporters: [ReporterStatus]) {
        for reporter in reporters {
            let name = reporter.name.rawValue
            Gauge(label: Name.configured, dimensions: [("reporter", name)], factory: factory).record(reporter.configured ? 1 : 0)
            Gauge(label: Name.enabled, dimensions: [("reporter", name)], factory: factory).record(reporter.enabled ? 1 : 0)
            Gauge(label: Name.failuresInARow, dimensions: [("reporter", name)], factory: factory).record(reporter.failuresInARow)
            for (counter, value) in reporter.counters.sorted(by: { $0.key < $1.key }).prefix(Self.maxCountersPerReporter) {
                let result = Self.labelValue(counter)
                let grown = seen.withLock { seen in
                    let key = "\(name) \(result)"
                    defer { seen[key] = max(seen[key] ?? 0, value) }
                    return value - (seen[key] ?? 0)
                }
                let metric = Counter(label: Name.requests, dimensions: [("reporter", name), ("result", result)], factory: factory)
                if grown > 0 { metric.increment(by: grown) }
            }
        }
    }

    /// `notSent` reads `not_sent`, as the beacon metrics write it; anything but letters and digits is `_`.
    static func labelValue(_ counter: String) -> String {
        var label = ""
        for character in counter.prefix(32) {
            if character.isUppercase, !label.isEmpty { label += "_" }
            label += character.isASCII && (character.isLetter || character.isNumber) ? character.lowercased() : "_"
        }
        return label
    }
}
