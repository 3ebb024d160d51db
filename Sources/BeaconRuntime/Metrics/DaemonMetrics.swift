import BeaconDomain
import CoreMetrics
import Synchronization

/// The daemon's metrics: counters and a latency histogram recorded from its notifications as they
/// happen, and gauges computed from its status when scraped.
///
/// Every metric goes to the factory given at init, so tests read their own registry instead of
/// the process-wide `MetricsSystem`. Labels take values from small fixed sets only (event types,
/// results): never URLs nor ids, so the number of series stays bounded.
package final class DaemonMetrics: DaemonNotificationSubscriber {
    /// The metric names, as Prometheus shows them.
    enum Name {
        static let beacons = "beaconctl_beacons_total"
        static let beaconLatency = "beaconctl_beacon_latency_seconds"
        static let trackingEvents = "beaconctl_tracking_events_total"
        static let trackingEventsDue = "beaconctl_tracking_events_due"
        static let metadataFetches = "beaconctl_metadata_fetches_total"
        static let metadataAge = "beaconctl_metadata_age_seconds"
        static let lastTickAge = "beaconctl_last_tick_age_seconds"
        static let adBreaksSeen = "beaconctl_ad_breaks_seen_total"
        static let sessions = "beaconctl_sessions_total"
        static let sessionActive = "beaconctl_session_active"
        static let badInputLines = "beaconctl_bad_input_lines_total"
        static let beaconRetries = "beaconctl_beacon_retries_total"
        static let beaconBacklog = "beaconctl_beacon_deliveries_due"
        static let journalAvailable = "beaconctl_journal_available"
        static let logLinesDropped = "beaconctl_log_lines_dropped_total"
        static let playbackErrors = "beaconctl_playback_errors_total"
        static let auditRecords = "beaconctl_audit_records"
        static let auditRecordsDropped = "beaconctl_audit_records_dropped"
    }

    private let factory: any MetricsFactory
    private let trackingEventsDue: Meter
    private let beaconLatency: Timer
    private let metadataApplied: Counter
    private let metadataUnchanged: Counter
    private let metadataFailed: Counter
    private let adBreaksSeen: Counter
    private let sessionsReady: Counter
    private let sessionsFailed: Counter
    private let badInputLines: Counter
    private let beaconRetries: Counter
    private let beaconBacklog: Gauge
    private let journalAvailable: Gauge
    private let sessionActive: Gauge
    private let metadataAge: AbsentWhenUnknownGauge
    private let lastTickAge: AbsentWhenUnknownGauge
    private let logLinesDropped: Counter
    private let auditRecords: Gauge
    private let auditRecordsDropped: Gauge
    private let reporters: ReporterMetrics
    /// The status's count of dropped log lines at the last scrape: the counter grows by the difference.
    private let logLinesDroppedSeen = Mutex(0)

    /// Creates every metric that has no per-event label, so each is exported (as 0) from the start.
    package init(factory: any MetricsFactory) {
        self.factory = factory
        trackingEventsDue = Meter(label: Name.trackingEventsDue, factory: factory)
        beaconLatency = Timer(label: Name.beaconLatency, factory: factory)
        metadataApplied = Counter(label: Name.metadataFetches, dimensions: [("result", "applied")], factory: factory)
        metadataUnchanged = Counter(label: Name.metadataFetches, dimensions: [("result", "unchanged")], factory: factory)
        metadataFailed = Counter(label: Name.metadataFetches, dimensions: [("result", "failed")], factory: factory)
        adBreaksSeen = Counter(label: Name.adBreaksSeen, factory: factory)
        sessionsReady = Counter(label: Name.sessions, dimensions: [("result", "ready")], factory: factory)
        sessionsFailed = Counter(label: Name.sessions, dimensions: [("result", "failed")], factory: factory)
        badInputLines = Counter(label: Name.badInputLines, factory: factory)
        beaconRetries = Counter(label: Name.beaconRetries, factory: factory)
        beaconBacklog = Gauge(label: Name.beaconBacklog, factory: factory)
        beaconBacklog.record(0)
        journalAvailable = Gauge(label: Name.journalAvailable, factory: factory)
        journalAvailable.record(0)
        sessionActive = Gauge(label: Name.sessionActive, factory: factory)
        sessionActive.record(0)
        metadataAge = AbsentWhenUnknownGauge(label: Name.metadataAge, factory: factory)
        lastTickAge = AbsentWhenUnknownGauge(label: Name.lastTickAge, factory: factory)
        logLinesDropped = Counter(label: Name.logLinesDropped, factory: factory)
        auditRecords = Gauge(label: Name.auditRecords, factory: factory)
        auditRecordsDropped = Gauge(label: Name.auditRecordsDropped, factory: factory)
        reporters = ReporterMetrics(factory: factory)
    }

    /// Records what the daemon just did.
    package func receive(_ notification: DaemonNotification) {
        switch notification {
        case .sessionReady: sessionsReady.increment()
        case .sessionFailed: sessionsFailed.increment()
        case .metadataApplied: metadataApplied.increment()
        case .metadataUnchanged: metadataUnchanged.increment()
        case .metadataFailed: metadataFailed.increment()
        case .adBreaksDiscovered(let adBreakIDs): adBreaksSeen.increment(by: adBreakIDs.count)
        case .lineRejected: badInputLines.increment()
        case .beaconsDue: trackingEventsDue.increment()
        case .beaconsDelivered(let firing, let results, let state):
            trackingEventsDue.decrement()
            let event = Self.eventLabel(firing.event)
            Counter(label: Name.trackingEvents, dimensions: [("event", event), ("state", state.rawValue)], factory: factory).increment()
            for result in results {
                Counter(label: Name.beacons, dimensions: [("event", event), ("result", Self.resultLabel(result.outcome))], factory: factory)
                    .increment()
                // Only an answer has a latency; failures and refusals carry none.
                if case .answered = result.outcome {
                    beaconLatency.recordMilliseconds(result.latencyMilliseconds)
                }
            }
        case .beaconRetrying:
            beaconRetries.increment()
        case .playerInformed(.error(let error)):
            // Exported from the first error of its source on, like the per-event counters.
            Counter(label: Name.playbackErrors, dimensions: [("source", error.source.rawValue)], factory: factory).increment()
        case .sessionStarting, .sessionEnded, .drainStarted, .drainTimedOut, .playbackLoaded, .playheadObserved,
            .playerEventObserved, .userActionObserved, .playerInformed, .adLifecycle, .playerNotified, .heartbeatFailing,
            .interstitialStarted, .interstitialEnded:
            break
        }
    }

    /// Sets the gauges that describe the daemon now, from its status; call it just before a scrape.
    /// The ages are absent while the daemon has seen no tick, or its session no metadata.
    package func observe(_ report: StatusReport, now: Milliseconds) {
        sessionActive.record(report.session == nil ? 0 : 1)
        beaconBacklog.record(report.deliveries.count { !$0.state.isFinished })
        journalAvailable.record(report.journal.state == .ok ? 1 : 0)
        metadataAge.set(report.lastMetadataAt.map { Self.seconds(from: $0, to: now) })
        lastTickAge.set(report.lastTickAt.map { Self.seconds(from: $0, to: now) })
        let newlyDropped = logLinesDroppedSeen.withLock { seen in
            defer { seen = max(seen, report.counters.logLinesDropped) }
            return report.counters.logLinesDropped - seen
        }
        if newlyDropped > 0 { logLinesDropped.increment(by: newlyDropped) }
        if let audit = report.audit {
            auditRecords.record(audit.records)
            auditRecordsDropped.record(audit.dropped)
        }
        reporters.observe(report.reporters)
    }

    /// `sent` (answered 2xx), `failed` (another status, or no answer), `refused` (not an allowed URL),
    /// `not_sent` (quiet).
    static func resultLabel(_ outcome: RequestResult.Outcome) -> String {
        switch outcome {
        case .answered(let status): HTTPStatus.isSuccess(status) ? "sent" : "failed"
        case .failed: "failed"
        case .refused: "refused"
        case .notSent: "not_sent"
        }
    }

    /// The event type as a label value; types the daemon does not know never fire, but are
    /// folded into `other` all the same, so metadata cannot mint label values.
    static func eventLabel(_ type: TrackingEventType) -> String {
        type.trigger == .unknown ? "other" : type.rawValue
    }

    private static func seconds(from time: Milliseconds, to now: Milliseconds) -> Double {
        Double(max(0, now - time)) / 1000
    }
}

/// A gauge exported only while its value is known: a made-up 0 would read as "just now".
private final class AbsentWhenUnknownGauge: Sendable {
    private let label: String
    private let factory: any MetricsFactory
    private let gauge = Mutex<Gauge?>(nil)

    init(label: String, factory: any MetricsFactory) {
        self.label = label
        self.factory = factory
    }

    func set(_ value: Double?) {
        gauge.withLock { gauge in
            guard let value else {
                gauge?.destroy()
                gauge = nil
                return
            }
            let current = gauge ?? Gauge(label: label, factory: factory)
            current.record(value)
            gauge = current
        }
    }
}
