@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting
import Prometheus
import Testing

/// The metrics sink against its own registry: exact exposition lines for a scripted day.
@Suite(.timeLimit(.minutes(2))) struct DaemonMetricsTests {
    let registry = PrometheusCollectorRegistry()
    let metrics: DaemonMetrics
    let now: Milliseconds = 1_700_000_000_000

    init() {
        metrics = DaemonMetrics(factory: PrometheusMetricsFactory(registry: registry))
    }

    /// Every line of the exposition, sorted: families and label sets come out in hash order.
    var exposition: [String] {
        registry.emitToString().split(separator: "\n").map(String.init).sorted()
    }

    static func firing(_ event: TrackingEventType, urls: Int = 1) -> Firing {
        Firing(
            reference: EventReference(adBreakID: "p1", adIndex: 0, eventIndex: 0), adBreakID: "p1", adID: "a1", event: event, eventStart: 0,
            signalingURLs: (0..<urls).map { "http://127.0.0.1/b?e=\(event)&n=\($0)" })
    }

    static func answered(_ status: Int, after milliseconds: Int64) -> RequestResult {
        RequestResult(url: "http://127.0.0.1/b", outcome: .answered(status: status), latencyMilliseconds: milliseconds)
    }

    static let retrying = BeaconDelivery(
        key: BeaconDelivery.Key(sessionKey: "s", adBreakID: "p1", adID: "a1", event: .start, eventStart: 0, url: "http://127.0.0.1/b", occurrence: 0),
        reference: EventReference(adBreakID: "p1", adIndex: 0, eventIndex: 0), attempts: 1, lastStatus: 503, dueAt: 0, nextAttemptAt: 700)

    static func outcome(_ outcome: RequestResult.Outcome) -> RequestResult {
        RequestResult(url: "http://127.0.0.1/b", outcome: outcome, latencyMilliseconds: 0)
    }

    func status(session: Bool, lastTickAt: Milliseconds?, lastMetadataAt: Milliseconds?) -> StatusReport {
        StatusReport(
            version: "test", state: session ? "playing" : "idle",
            session: session ? SessionEndpoints(mediaURL: "http://127.0.0.1/m", manifestURL: "http://127.0.0.1/m", trackingURL: "http://127.0.0.1/t", sessionID: "s") : nil,
            playhead: nil, lastTickAt: lastTickAt, lastMetadataAt: lastMetadataAt, dataRange: nil, adBreaks: [], counters: .init())
    }

    @Test func beforeAnythingHappensEveryUnlabelledMetricIsZeroAndTheAgesAreAbsent() {
        metrics.observe(status(session: false, lastTickAt: nil, lastMetadataAt: nil), now: now)
        #expect(exposition == [
            "# TYPE beaconctl_ad_breaks_seen_total counter",
            "# TYPE beaconctl_audit_records gauge",
            "# TYPE beaconctl_audit_records_dropped gauge",
            "# TYPE beaconctl_bad_input_lines_total counter",
            "# TYPE beaconctl_beacon_deliveries_due gauge",
            "# TYPE beaconctl_beacon_latency_seconds histogram",
            "# TYPE beaconctl_beacon_retries_total counter",
            "# TYPE beaconctl_journal_available gauge",
            "# TYPE beaconctl_log_lines_dropped_total counter",
            "# TYPE beaconctl_metadata_fetches_total counter",
            "# TYPE beaconctl_session_active gauge",
            "# TYPE beaconctl_sessions_total counter",
            "# TYPE beaconctl_tracking_events_due gauge",
            "beaconctl_ad_breaks_seen_total 0",
            "beaconctl_audit_records 0.0",
            "beaconctl_audit_records_dropped 0.0",
            "beaconctl_bad_input_lines_total 0",
            "beaconctl_beacon_deliveries_due 0.0",
            #"beaconctl_beacon_latency_seconds_bucket{le="+Inf"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.005"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.01"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.025"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.05"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.1"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.25"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.5"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="1.0"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="10.0"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="2.5"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="5.0"} 0"#,
            "beaconctl_beacon_latency_seconds_count 0",
            "beaconctl_beacon_latency_seconds_sum 0.0",
            "beaconctl_beacon_retries_total 0",
            "beaconctl_journal_available 0.0",
            "beaconctl_log_lines_dropped_total 0",
            #"beaconctl_metadata_fetches_total{result="applied"} 0"#,
            #"beaconctl_metadata_fetches_total{result="failed"} 0"#,
            #"beaconctl_metadata_fetches_total{result="unchanged"} 0"#,
            "beaconctl_session_active 0.0",
            #"beaconctl_sessions_total{result="failed"} 0"#,
            #"beaconctl_sessions_total{result="ready"} 0"#,
            "beaconctl_tracking_events_due 0.0",
        ])
    }

    @Test func aScriptedSessionGivesExactlyTheseLines() {
        let endpoints = SessionEndpoints(mediaURL: "http://127.0.0.1/m", manifestURL: "http://127.0.0.1/m", trackingURL: "http://127.0.0.1/t", sessionID: "s")
        let script: [DaemonNotification] = [
            .sessionStarting(mediaURL: "http://127.0.0.1/m"),
            .sessionFailed(mediaURL: "http://127.0.0.1/m", reason: "HTTP 500"),
            .sessionStarting(mediaURL: "http://127.0.0.1/m"),
            .sessionReady(endpoints),
            .metadataFailed(reason: "HTTP 503"),
            .metadataApplied(adBreaks: 2, dataRange: DataRange(start: 0, end: 1), bytes: 10),
            .adBreaksDiscovered(adBreakIDs: ["p1", "p2"]),
            .metadataUnchanged(bytes: 10),
            .metadataUnchanged(bytes: 10),
            .metadataApplied(adBreaks: 3, dataRange: DataRange(start: 0, end: 2), bytes: 12),
            .adBreaksDiscovered(adBreakIDs: ["p3"]),
            .lineRejected(reason: "not a number"),
            .lineRejected(reason: "line longer than 65536 bytes"),
            .lineRejected(reason: "invalid UTF-8"),
            .beaconsDue(Self.firing(.impression, urls: 2)),
            .beaconsDue(Self.firing(.start)),
            .beaconsDue(Self.firing(.midpoint, urls: 2)),
            .beaconsDue(Self.firing(.firstQuartile)),
            .beaconsDue(Self.firing(.complete)),
            .beaconsDue(Self.firing(TrackingEventType(rawValue: "vendorSpecific"))),
            .beaconsDelivered(Self.firing(.impression, urls: 2), results: [Self.answered(200, after: 40), Self.answered(204, after: 120)], state: .done),
            .beaconsDelivered(Self.firing(.start), results: [Self.answered(500, after: 3000)], state: .failed),
            .beaconsDelivered(
                Self.firing(.midpoint, urls: 2), results: [Self.outcome(.failed(.timedOut)), Self.outcome(.refused("scheme 'file'"))], state: .failed),
            .beaconsDelivered(Self.firing(.complete), results: [Self.outcome(.notSent(.quiet))], state: .done),
            .beaconsDelivered(Self.firing(TrackingEventType(rawValue: "vendorSpecific")), results: [Self.answered(200, after: 7)], state: .done),
            .beaconRetrying(Self.retrying),
            .beaconRetrying(Self.retrying),
            .drainStarted(inFlight: 1),
            .sessionEnded(sessionID: "s"),
        ]
        for notification in script { metrics.receive(notification) }
        var report = status(session: true, lastTickAt: now - 1_500, lastMetadataAt: now - 2_250)
        report.journal = StatusReport.Journal(state: .ok)
        report.counters.logLinesDropped = 7
        report.audit = AuditStatus(storage: "journal", records: 40, bytes: 12_000, dropped: 2, droppedUnexported: 1)
        report.deliveries = [.due, .delivered, .failed].map { state in
            StatusReport.Delivery(
                BeaconDelivery(
                    key: BeaconDelivery.Key(
                        sessionKey: "s", adBreakID: "p1", adID: "a1", event: .start, eventStart: 0, url: "http://127.0.0.1/\(state)", occurrence: 0),
                    reference: EventReference(adBreakID: "p1", adIndex: 0, eventIndex: 0), state: state, dueAt: 0), wallOffset: 0)
        }
        metrics.observe(report, now: now)

        #expect(exposition == [
            "# TYPE beaconctl_ad_breaks_seen_total counter",
            "# TYPE beaconctl_audit_records gauge",
            "# TYPE beaconctl_audit_records_dropped gauge",
            "# TYPE beaconctl_bad_input_lines_total counter",
            "# TYPE beaconctl_beacon_deliveries_due gauge",
            "# TYPE beaconctl_beacon_latency_seconds histogram",
            "# TYPE beaconctl_beacon_retries_total counter",
            "# TYPE beaconctl_beacons_total counter",
            "# TYPE beaconctl_journal_available gauge",
            "# TYPE beaconctl_last_tick_age_seconds gauge",
            "# TYPE beaconctl_log_lines_dropped_total counter",
            "# TYPE beaconctl_metadata_age_seconds gauge",
            "# TYPE beaconctl_metadata_fetches_total counter",
            "# TYPE beaconctl_session_active gauge",
            "# TYPE beaconctl_sessions_total counter",
            "# TYPE beaconctl_tracking_events_due gauge",
            "# TYPE beaconctl_tracking_events_total counter",
            "beaconctl_ad_breaks_seen_total 3",
            "beaconctl_audit_records 40.0",
            "beaconctl_audit_records_dropped 2.0",
            "beaconctl_bad_input_lines_total 3",
            "beaconctl_beacon_deliveries_due 1.0",
            // Latencies of the four answers: 7 ms, 40 ms, 120 ms, 3 s.
            #"beaconctl_beacon_latency_seconds_bucket{le="+Inf"} 4"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.005"} 0"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.01"} 1"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.025"} 1"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.05"} 2"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.1"} 2"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.25"} 3"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="0.5"} 3"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="1.0"} 3"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="10.0"} 4"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="2.5"} 3"#,
            #"beaconctl_beacon_latency_seconds_bucket{le="5.0"} 4"#,
            "beaconctl_beacon_latency_seconds_count 4",
            "beaconctl_beacon_latency_seconds_sum 3.167",
            "beaconctl_beacon_retries_total 2",
            #"beaconctl_beacons_total{event="complete",result="not_sent"} 1"#,
            #"beaconctl_beacons_total{event="impression",result="sent"} 2"#,
            #"beaconctl_beacons_total{event="midpoint",result="failed"} 1"#,
            #"beaconctl_beacons_total{event="midpoint",result="refused"} 1"#,
            #"beaconctl_beacons_total{event="other",result="sent"} 1"#,
            #"beaconctl_beacons_total{event="start",result="failed"} 1"#,
            "beaconctl_journal_available 1.0",
            "beaconctl_last_tick_age_seconds 1.5",
            "beaconctl_log_lines_dropped_total 7",
            "beaconctl_metadata_age_seconds 2.25",
            #"beaconctl_metadata_fetches_total{result="applied"} 2"#,
            #"beaconctl_metadata_fetches_total{result="failed"} 1"#,
            #"beaconctl_metadata_fetches_total{result="unchanged"} 2"#,
            "beaconctl_session_active 1.0",
            #"beaconctl_sessions_total{result="failed"} 1"#,
            #"beaconctl_sessions_total{result="ready"} 1"#,
            // firstQuartile is still due.
            "beaconctl_tracking_events_due 1.0",
            #"beaconctl_tracking_events_total{event="complete",state="done"} 1"#,
            #"beaconctl_tracking_events_total{event="impression",state="done"} 1"#,
            #"beaconctl_tracking_events_total{event="midpoint",state="failed"} 1"#,
            #"beaconctl_tracking_events_total{event="other",state="done"} 1"#,
            #"beaconctl_tracking_events_total{event="start",state="failed"} 1"#,
        ])
    }

    /// Player errors count by source, from the first of each on; other player information counts nothing.
    @Test func playbackErrorsAreCountedBySource() {
        for source: PlaybackError.Source in [.application, .player, .application] {
            metrics.receive(.playerInformed(.error(PlaybackError(source: source, id: "E1", message: "failed"))))
        }
        metrics.receive(.playerInformed(.chapterEnd))
        metrics.receive(.playerInformed(.privacy(.optOut)))
        #expect(exposition.filter { $0.contains("playback_errors") } == [
            "# TYPE beaconctl_playback_errors_total counter",
            #"beaconctl_playback_errors_total{source="application"} 2"#,
            #"beaconctl_playback_errors_total{source="player"} 1"#,
        ])
    }

    @Test func agesFollowTheStatusAndVanishWhenUnknown() {
        metrics.observe(status(session: true, lastTickAt: now - 250, lastMetadataAt: nil), now: now)
        #expect(exposition.filter { $0.contains("age_seconds") } == ["# TYPE beaconctl_last_tick_age_seconds gauge", "beaconctl_last_tick_age_seconds 0.25"])

        metrics.observe(status(session: true, lastTickAt: now - 250, lastMetadataAt: now - 60_000), now: now + 1_000)
        #expect(exposition.filter { $0.contains("age_seconds") } == [
            "# TYPE beaconctl_last_tick_age_seconds gauge", "# TYPE beaconctl_metadata_age_seconds gauge",
            "beaconctl_last_tick_age_seconds 1.25", "beaconctl_metadata_age_seconds 61.0",
        ])

        // A new session has no metadata yet; a clock stepping back never gives a negative age.
        metrics.observe(status(session: true, lastTickAt: now + 5_000, lastMetadataAt: nil), now: now)
        #expect(exposition.filter { $0.contains("age_seconds") } == ["# TYPE beaconctl_last_tick_age_seconds gauge", "beaconctl_last_tick_age_seconds 0.0"])
        #expect(exposition.contains("beaconctl_session_active 1.0"))

        metrics.observe(status(session: false, lastTickAt: nil, lastMetadataAt: nil), now: now)
        #expect(exposition.filter { $0.contains("age_seconds") } == [])
        #expect(exposition.contains("beaconctl_session_active 0.0"))
    }

    @Test func droppedLogLinesCountWhatTheStatusCountsScrapeAfterScrape() {
        for (dropped, exported) in [(0, 0), (3, 3), (3, 3), (10, 10)] {
            var report = status(session: false, lastTickAt: nil, lastMetadataAt: nil)
            report.counters.logLinesDropped = dropped
            metrics.observe(report, now: now)
            #expect(exposition.contains("beaconctl_log_lines_dropped_total \(exported)"), "\(exposition)")
        }
    }
}
