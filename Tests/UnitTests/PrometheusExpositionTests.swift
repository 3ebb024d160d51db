import BeaconDomain
import BeaconTesting
import Testing

/// The daemon's `/metrics` text read back as OTLP metrics.
@Suite(.timeLimit(.minutes(1))) struct PrometheusExpositionTests {
    static let start: Milliseconds = 1_700_000_000_000
    static let time: Milliseconds = 1_700_000_060_000

    /// Lines of a real scrape of `beaconctl demo --metrics-address`, as swift-prometheus wrote them.
    static let scrape = """
        # TYPE beaconctl_beacon_latency_seconds histogram
        beaconctl_beacon_latency_seconds_bucket{le="0.005"} 14
        beaconctl_beacon_latency_seconds_bucket{le="0.01"} 15
        beaconctl_beacon_latency_seconds_bucket{le="0.025"} 15
        beaconctl_beacon_latency_seconds_bucket{le="0.05"} 15
        beaconctl_beacon_latency_seconds_bucket{le="0.1"} 15
        beaconctl_beacon_latency_seconds_bucket{le="0.25"} 15
        beaconctl_beacon_latency_seconds_bucket{le="0.5"} 15
        beaconctl_beacon_latency_seconds_bucket{le="1.0"} 15
        beaconctl_beacon_latency_seconds_bucket{le="2.5"} 15
        beaconctl_beacon_latency_seconds_bucket{le="5.0"} 15
        beaconctl_beacon_latency_seconds_bucket{le="10.0"} 15
        beaconctl_beacon_latency_seconds_bucket{le="+Inf"} 15
        beaconctl_beacon_latency_seconds_sum 0.03
        beaconctl_beacon_latency_seconds_count 15
        # TYPE beaconctl_tracking_events_due gauge
        beaconctl_tracking_events_due 0.0
        # TYPE beaconctl_reporter_enabled gauge
        beaconctl_reporter_enabled{reporter="media-analytics"} 1.0
        beaconctl_reporter_enabled{reporter="heartbeat"} 0.0
        beaconctl_reporter_enabled{reporter="beacons"} 1.0
        # TYPE beaconctl_session_active gauge
        beaconctl_session_active 1.0
        # TYPE beaconctl_sessions_total counter
        beaconctl_sessions_total{result="ready"} 1
        beaconctl_sessions_total{result="failed"} 0
        # TYPE beaconctl_beacons_total counter
        beaconctl_beacons_total{event="mute",result="sent"} 1
        beaconctl_beacons_total{event="impression",result="sent"} 2
        beaconctl_beacons_total{event="start",result="sent"} 2
        # TYPE beaconctl_beacon_retries_total counter
        beaconctl_beacon_retries_total 0
        # TYPE beaconctl_last_tick_age_seconds gauge
        beaconctl_last_tick_age_seconds 0.145
        # TYPE beaconctl_reporter_requests_total counter
        beaconctl_reporter_requests_total{reporter="beacons",result="sent"} 15
        beaconctl_reporter_requests_total{reporter="media-analytics",result="sent"} 24

        """

    static func metrics(_ text: String) -> [OTLPMetric] {
        PrometheusExposition(parsing: text).otlpMetrics(start: start, time: time)
    }

    static func attributes(_ pairs: KeyValuePairs<String, String>) -> [OTLPAttribute] {
        pairs.map { OTLPAttribute($0.key, .string($0.value)) }
    }

    /// What OTLP asks of a histogram: one bucket more than bounds, and the buckets adding up to the count.
    static func bucketsAddUp(_ point: OTLPHistogramDataPoint) -> Bool {
        point.bucketCounts.count == point.explicitBounds.count + 1 && point.bucketCounts.reduce(0, &+) == point.count
    }

    static func histogram(_ metrics: [OTLPMetric], _ name: String) -> [OTLPHistogramDataPoint] {
        guard case .histogram(let points)? = metrics.first(where: { $0.name == name })?.data else { return [] }
        return points
    }

    let start = UnixNano.of(Self.start)
    let time = UnixNano.of(Self.time)

    /// A point of a counter read from the scrape.
    func counted(_ labels: KeyValuePairs<String, String>, _ value: OTLPNumberDataPoint.Value) -> OTLPNumberDataPoint {
        OTLPNumberDataPoint(attributes: Self.attributes(labels), startTimeUnixNano: start, timeUnixNano: time, value: value)
    }

    /// A point of a gauge read from the scrape.
    func measured(_ labels: KeyValuePairs<String, String>, _ value: Double) -> OTLPNumberDataPoint {
        OTLPNumberDataPoint(attributes: Self.attributes(labels), timeUnixNano: time, value: .double(value))
    }

    @Test func theDaemonsScrapeBecomesOTLPMetrics() throws {
        let metrics = Self.metrics(Self.scrape)
        #expect(metrics.map(\.name) == [
            "beaconctl_beacon_latency_seconds", "beaconctl_tracking_events_due", "beaconctl_reporter_enabled", "beaconctl_session_active",
            "beaconctl_sessions_total", "beaconctl_beacons_total", "beaconctl_beacon_retries_total", "beaconctl_last_tick_age_seconds",
            "beaconctl_reporter_requests_total",
        ])
        #expect(metrics[0] == OTLPMetric(
            name: "beaconctl_beacon_latency_seconds",
            data: .histogram([
                OTLPHistogramDataPoint(
                    startTimeUnixNano: start, timeUnixNano: time, count: 15, sum: 0.03, bucketCounts: [14, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                    explicitBounds: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])
            ])))
        #expect(metrics[2] == OTLPMetric(
            name: "beaconctl_reporter_enabled",
            data: .gauge([
                measured(["reporter": "media-analytics"], 1), measured(["reporter": "heartbeat"], 0), measured(["reporter": "beacons"], 1),
            ])))
        #expect(metrics[4] == OTLPMetric(
            name: "beaconctl_sessions_total",
            data: .sum([counted(["result": "ready"], .int(1)), counted(["result": "failed"], .int(0))], isMonotonic: true)))
        #expect(metrics[5].data == .sum(
            [
                counted(["event": "mute", "result": "sent"], .int(1)), counted(["event": "impression", "result": "sent"], .int(2)),
                counted(["event": "start", "result": "sent"], .int(2)),
            ], isMonotonic: true))
        #expect(metrics[7].data == .gauge([measured([:], 0.145)]))
    }

    @Test func theScrapeIsARequestACollectorReads() {
        let text = """
            # HELP beaconctl_sessions_total Sessions started.
            # TYPE beaconctl_sessions_total counter
            beaconctl_sessions_total{result="ready"} 1
            # TYPE beaconctl_session_active gauge
            beaconctl_session_active 1.0
            # TYPE latency histogram
            latency_bucket{le="0.1"} 2
            latency_bucket{le="+Inf"} 3
            latency_sum 0.4
            latency_count 3
            """
        let json = OTLPJSON.metricsRequest(
            resource: OTLPResource(attributes: []), scope: OTLPScope(version: "1"), metrics: Self.metrics(text))
        let expected = """
            {"resourceMetrics":[{"resource":{},"scopeMetrics":[{"scope":{"name":"beaconctl","version":"1"},"metrics":[\
            {"name":"beaconctl_sessions_total","description":"Sessions started.","sum":{"dataPoints":[\
            {"attributes":[{"key":"result","value":{"stringValue":"ready"}}],\
            "startTimeUnixNano":"1700000000000000000","timeUnixNano":"1700000060000000000","asInt":"1"}],\
            "aggregationTemporality":2,"isMonotonic":true}},\
            {"name":"beaconctl_session_active","gauge":{"dataPoints":[{"timeUnixNano":"1700000060000000000","asDouble":1.0}]}},\
            {"name":"latency","histogram":{"dataPoints":[{"startTimeUnixNano":"1700000000000000000","timeUnixNano":"1700000060000000000",\
            "count":"3","sum":0.4,"bucketCounts":["2","1"],"explicitBounds":[0.1]}],"aggregationTemporality":2}}]}]}]}
            """
        #expect(String(decoding: json, as: UTF8.self) == expected)
    }

    @Test func eachHistogramSeriesCountsItsBucketsApart() {
        let text = """
            # TYPE request_seconds histogram
            request_seconds_bucket{host="a",le="1"} 3
            request_seconds_bucket{le="0.5",host="b"} 1
            request_seconds_bucket{host="a",le="0.5"} 1
            request_seconds_bucket{host="a",le="+Inf"} 4
            request_seconds_bucket{host="b",le="1"} 1
            request_seconds_sum{host="a"} 2.5
            request_seconds_count{host="a"} 4
            request_seconds_count{host="b"} 6
            request_seconds_sum{host="b"} 9
            """
        let points = Self.histogram(Self.metrics(text), "request_seconds")
        #expect(points == [
            OTLPHistogramDataPoint(
                attributes: Self.attributes(["host": "a"]), startTimeUnixNano: start, timeUnixNano: time, count: 4, sum: 2.5,
                bucketCounts: [1, 2, 1], explicitBounds: [0.5, 1]),
            // No +Inf bucket: the count says how many fell above the last bound.
            OTLPHistogramDataPoint(
                attributes: Self.attributes(["host": "b"]), startTimeUnixNano: start, timeUnixNano: time, count: 6, sum: 9,
                bucketCounts: [1, 0, 5], explicitBounds: [0.5, 1]),
        ])
        #expect(points.allSatisfy(Self.bucketsAddUp))
    }

    @Test func aTornHistogramNeverCountsBelowZero() {
        let text = """
            # TYPE h histogram
            h_bucket{le="1"} 5
            h_bucket{le="2"} 3
            h_bucket{le="2"} 9
            h_bucket{le="NaN"} 2
            h_bucket{le="-Inf"} 2
            h_bucket{le="x"} 2
            h_bucket 2
            h_bucket{le="+Inf"} 4
            h_count 4
            """
        #expect(Self.histogram(Self.metrics(text), "h") == [
            OTLPHistogramDataPoint(
                startTimeUnixNano: start, timeUnixNano: time, count: 5, sum: 0, bucketCounts: [5, 0, 0], explicitBounds: [1, 2])
        ])
        // Only a +Inf bucket, or only a count: one bucket holding all.
        let onlyCount = Self.histogram(Self.metrics("# TYPE c histogram\nc_count 3\nc_sum 1.5"), "c")
        #expect(onlyCount == [
            OTLPHistogramDataPoint(startTimeUnixNano: start, timeUnixNano: time, count: 3, sum: 1.5, bucketCounts: [3], explicitBounds: [])
        ])
    }

    @Test func labelValuesAndHelpAreUnescaped() throws {
        let text = #"""
            # HELP m What a \\ path\nholds, "quoted" \t.
            # TYPE m gauge
            m{path="C:\\beacons",quote="say \"hi\"",lines="one\ntwo",other="\t",empty=""} 1
            """#
        let exposition = PrometheusExposition(parsing: text)
        let family = try #require(exposition.families.first)
        #expect(family.help == "What a \\ path\nholds, \"quoted\" \\t.")
        #expect(family.samples == [
            PrometheusSample(
                name: "m",
                labels: [
                    .init("path", #"C:\beacons"#), .init("quote", #"say "hi""#), .init("lines", "one\ntwo"), .init("other", #"\t"#),
                    .init("empty", ""),
                ],
                value: 1)
        ])
        #expect(Self.metrics(text).first?.description == family.help)
    }

    @Test func countersCountInWholeNumbersWhenTheyCan() {
        let text = """
            # TYPE c counter
            c{kind="whole"} 12
            c{kind="written as a double"} 3.0
            c{kind="fraction"} 2.5
            c{kind="huge"} 1e20
            c{kind="not a number"} NaN
            # TYPE sessions_count counter
            sessions_count 4
            """
        let metrics = Self.metrics(text)
        guard case .sum(let points, true)? = metrics.first?.data else {
            Issue.record("not a monotonic sum: \(metrics)")
            return
        }
        #expect(points.prefix(4).map(\.value) == [.int(12), .int(3), .double(2.5), .double(1e20)])
        #expect(points.count == 5 && points[4].value.isNaN)
        // A counter whose name ends in `_count` is no histogram's count.
        #expect(metrics.last?.name == "sessions_count")
        #expect(metrics.last.map { if case .sum = $0.data { true } else { false } } == true)
    }

    @Test func untypedSamplesAreGaugesAndSummariesAreLeftOut() {
        let text = """
            loose_value{a="b"} -2.5
            # TYPE rpc_seconds summary
            rpc_seconds{quantile="0.5"} 0.2
            rpc_seconds_sum 10
            rpc_seconds_count 40
            # TYPE declared_but_empty gauge
            # TYPE u untyped
            u +Inf
            """
        let metrics = Self.metrics(text)
        #expect(metrics.map(\.name) == ["loose_value", "u"])
        #expect(metrics.first?.data == .gauge([measured(["a": "b"], -2.5)]))
        #expect(metrics.last?.data == .gauge([measured([:], .infinity)]))
    }

    @Test func blanksTimestampsAndCRLFAreRead() {
        let text = "# TYPE g gauge\r\n  g { a = \"1\" , } \t 5 1700000000000\r\n\r\ng{a=\"2\"} 6\r\n"
        #expect(Self.metrics(text).first?.data == .gauge([measured(["a": "1"], 5), measured(["a": "2"], 6)]))
    }

    @Test(arguments: [
        #"m{a="b" 1"#, #"m{a=b} 1"#, #"m{a="b"c="d"} 1"#, #"m{a="b} 1"#, #"m{="b"} 1"#, #"m{,} 1"#, #"{a="b"} 1"#, "m", "m one",
        "m 1 2 3", "m 1 later", "9m 1", "m- 1", "m{a=\"\\\"} 1", "m{a=\"b\"}", "\u{0} 1", "m\u{0} 1", "é 1",
    ])
    func aMalformedLineIsSkipped(line: String) {
        let exposition = PrometheusExposition(parsing: "# TYPE m gauge\n\(line)\nm{ok=\"yes\"} 2\n")
        #expect(exposition.families.flatMap(\.samples) == [PrometheusSample(name: "m", labels: [.init("ok", "yes")], value: 2)], "\(line)")
    }

    @Test func aMalformedCommentSaysNothing() {
        let text = "# TYPE g\n# TYPE g bogus\n# TYPE g gauge extra\n#TYPE g counter\n# HELP\n# just a comment\ng 1\n"
        let families = PrometheusExposition(parsing: text).families
        #expect(families.map(\.kind) == [.untyped])
        #expect(families.first?.help == "")
    }

    @Test func noTextIsNoMetrics() {
        #expect(Self.metrics("").isEmpty)
        #expect(Self.metrics("\n\n# nothing\n").isEmpty)
    }

    /// Whatever the bytes, the reader and the conversion end: a scrape mangled at random places.
    @Test func mangledScrapesNeverStopTheReader() {
        var random = SeededGenerator(seed: 7)
        let original = Array(Self.scrape.utf8)
        let alphabet = Array("{}=\",\\\n #e+-.0123456789_leInfNa\t\r".utf8) + [0x00, 0xC3, 0xFF]
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...20, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = alphabet.randomElement(using: &random)!
                case 1: bytes.remove(at: index)
                default: bytes.insert(alphabet.randomElement(using: &random)!, at: index)
                }
            }
            let metrics = Self.metrics(String(decoding: bytes, as: UTF8.self))
            for case .histogram(let points) in metrics.map(\.data) {
                #expect(points.allSatisfy(Self.bucketsAddUp))
            }
        }
    }
}

extension OTLPNumberDataPoint.Value {
    fileprivate var isNaN: Bool {
        if case .double(let value) = self { value.isNaN } else { false }
    }
}
