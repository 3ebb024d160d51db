import Prometheus
import Testing

@testable import BeaconDomain
@testable import BeaconRuntime
@testable import BeaconTerminal

/// The reporters in metrics, read from their statuses at each scrape, and in the human status.
@Suite(.timeLimit(.minutes(2))) struct ReporterMetricsTests {
    let registry = PrometheusCollectorRegistry()

    var exposition: [String] {
        registry.emitToString().split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }.sorted()
    }

    static let reporters = [
        ReporterStatus(name: .beacons, configured: true, enabled: false, state: "disabled", failuresInARow: 2, counters: ["sent": 3, "notSent": 1]),
        ReporterStatus(name: .mediaAnalytics, configured: false, enabled: false, state: "not configured"),
    ]

    @Test func eachReporterIsALabelAndItsCountersGrowByWhatTheStatusAdded() {
        let metrics = ReporterMetrics(factory: PrometheusMetricsFactory(registry: registry))
        metrics.observe(Self.reporters)
        var later = Self.reporters
        later[0].counters["sent"] = 5
        metrics.observe(later)
        #expect(
            exposition == [
                #"beaconctl_reporter_configured{reporter="beacons"} 1.0"#,
                #"beaconctl_reporter_configured{reporter="media-analytics"} 0.0"#,
                #"beaconctl_reporter_enabled{reporter="beacons"} 0.0"#,
                #"beaconctl_reporter_enabled{reporter="media-analytics"} 0.0"#,
                #"beaconctl_reporter_failures_in_a_row{reporter="beacons"} 2.0"#,
                #"beaconctl_reporter_failures_in_a_row{reporter="media-analytics"} 0.0"#,
                #"beaconctl_reporter_requests_total{reporter="beacons",result="not_sent"} 1"#,
                #"beaconctl_reporter_requests_total{reporter="beacons",result="sent"} 5"#,
            ])
    }

    @Test func aCounterNameBecomesASafeLabelValue() {
        #expect(ReporterMetrics.labelValue("notSent") == "not_sent")
        #expect(ReporterMetrics.labelValue("drop-ped \"x\"") == "drop_ped__x_")
    }

    @Test func theHumanStatusHasALinePerReporter() {
        var beacons = Self.reporters[0]
        beacons.lastAnswer = "204"
        beacons.lastRequest = "start http://127.0.0.1/b"
        beacons.details = ["session": "s1"]
        let lines = StatusView.reporterLines([beacons, Self.reporters[1]])
        #expect(
            lines == [
                "  beacons          DISABLED  disabled   last 204 (start http://127.0.0.1/b)   2 failed in a row   notSent 1  sent 3",
                "    session s1",
                "  media-analytics  not configured",
            ])
    }
}
