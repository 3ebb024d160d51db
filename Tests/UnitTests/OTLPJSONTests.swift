import BeaconDomain
import Foundation
import Testing

/// The export requests against JSON written by hand from the OTLP specification (its JSON
/// Protobuf Encoding) and proto3's JSON mapping.
@Suite(.timeLimit(.minutes(1))) struct OTLPJSONTests {
    static let resource = OTLPResource(attributes: [
        OTLPAttribute("service.name", .string("beaconctl")), OTLPAttribute("service.version", .string("1.2.3")),
    ])
    static let scope = OTLPScope(version: "1.2.3")
    static let start: Milliseconds = 1_700_000_000_000
    static let time: Milliseconds = 1_700_000_060_000

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    @Test func aLogsRequestWritesEveryKindOfAttribute() {
        let records = [
            OTLPLogRecord(
                time: 1_700_000_000_123, observedTime: 1_700_000_000_456, severity: .warn, body: "beacon failed",
                attributes: [
                    OTLPAttribute("beacon.url", .string(#"http://127.0.0.1:4647/b?x="1""#)),
                    OTLPAttribute("retry", .bool(true)),
                    OTLPAttribute("attempts", .int(3)),
                    OTLPAttribute("latency.seconds", .double(0.25)),
                    OTLPAttribute("events", .array([.string("start"), .int(.min), .double(1e-7), .bool(false)])),
                ],
                eventName: "beacon.failed"),
            OTLPLogRecord(time: 0, severity: .info, body: ""),
        ]
        let expected = """
            {"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"beaconctl"}},\
            {"key":"service.version","value":{"stringValue":"1.2.3"}}]},"scopeLogs":[{"scope":{"name":"beaconctl","version":"1.2.3"},\
            "logRecords":[{"timeUnixNano":"1700000000123000000","observedTimeUnixNano":"1700000000456000000","severityNumber":13,\
            "severityText":"WARN","body":{"stringValue":"beacon failed"},"attributes":[\
            {"key":"beacon.url","value":{"stringValue":"http://127.0.0.1:4647/b?x=\\"1\\""}},\
            {"key":"retry","value":{"boolValue":true}},\
            {"key":"attempts","value":{"intValue":"3"}},\
            {"key":"latency.seconds","value":{"doubleValue":0.25}},\
            {"key":"events","value":{"arrayValue":{"values":[{"stringValue":"start"},{"intValue":"-9223372036854775808"},\
            {"doubleValue":1e-07},{"boolValue":false}]}}}],"eventName":"beacon.failed"},\
            {"severityNumber":9,"severityText":"INFO","body":{"stringValue":""}}]}]}]}
            """
        #expect(Self.text(OTLPJSON.logsRequest(resource: Self.resource, scope: Self.scope, records: records)) == expected)
    }

    @Test func aMetricsRequestWritesSumsGaugesAndHistograms() {
        let start = UnixNano.of(Self.start)
        let time = UnixNano.of(Self.time)
        let metrics = [
            OTLPMetric(
                name: "beaconctl_beacons_total", description: "Beacon requests",
                data: .sum(
                    [
                        OTLPNumberDataPoint(
                            attributes: [OTLPAttribute("event", .string("start")), OTLPAttribute("result", .string("sent"))],
                            startTimeUnixNano: start, timeUnixNano: time, value: .int(2)),
                        OTLPNumberDataPoint(
                            attributes: [OTLPAttribute("event", .string("complete"))], startTimeUnixNano: start, timeUnixNano: time,
                            value: .double(1.5)),
                    ], isMonotonic: true)),
            OTLPMetric(
                name: "beaconctl_session_active", unit: "1", data: .gauge([OTLPNumberDataPoint(timeUnixNano: time, value: .double(1))])),
            OTLPMetric(
                name: "beaconctl_beacon_latency_seconds", unit: "s",
                data: .histogram([
                    OTLPHistogramDataPoint(
                        startTimeUnixNano: start, timeUnixNano: time, count: 15, sum: 0.03, bucketCounts: [14, 1, 0],
                        explicitBounds: [0.005, 0.01])
                ])),
            OTLPMetric(
                name: "queue_depth_change", data: .sum([OTLPNumberDataPoint(timeUnixNano: time, value: .int(-3))], isMonotonic: false)),
        ]
        let expected = """
            {"resourceMetrics":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"beaconctl"}},\
            {"key":"service.version","value":{"stringValue":"1.2.3"}}]},"scopeMetrics":[{"scope":{"name":"beaconctl","version":"1.2.3"},\
            "metrics":[\
            {"name":"beaconctl_beacons_total","description":"Beacon requests","sum":{"dataPoints":[\
            {"attributes":[{"key":"event","value":{"stringValue":"start"}},{"key":"result","value":{"stringValue":"sent"}}],\
            "startTimeUnixNano":"1700000000000000000","timeUnixNano":"1700000060000000000","asInt":"2"},\
            {"attributes":[{"key":"event","value":{"stringValue":"complete"}}],\
            "startTimeUnixNano":"1700000000000000000","timeUnixNano":"1700000060000000000","asDouble":1.5}],\
            "aggregationTemporality":2,"isMonotonic":true}},\
            {"name":"beaconctl_session_active","unit":"1","gauge":{"dataPoints":[{"timeUnixNano":"1700000060000000000","asDouble":1.0}]}},\
            {"name":"beaconctl_beacon_latency_seconds","unit":"s","histogram":{"dataPoints":[\
            {"startTimeUnixNano":"1700000000000000000","timeUnixNano":"1700000060000000000","count":"15","sum":0.03,\
            "bucketCounts":["14","1","0"],"explicitBounds":[0.005,0.01]}],"aggregationTemporality":2}},\
            {"name":"queue_depth_change","sum":{"dataPoints":[{"timeUnixNano":"1700000060000000000","asInt":"-3"}],\
            "aggregationTemporality":2}}]}]}]}
            """
        #expect(Self.text(OTLPJSON.metricsRequest(resource: Self.resource, scope: Self.scope, metrics: metrics)) == expected)
    }

    /// What a JSON reader makes of a request: every key lowerCamelCase, 64-bit integers strings,
    /// enums numbers.
    @Test func aRequestReadsBackWithTheTypesTheMappingAsksFor() throws {
        let records = [
            OTLPLogRecord(time: Self.time, severity: .error, body: "x", attributes: [OTLPAttribute("n", .int(.max))], eventName: "e")
        ]
        let request = OTLPJSON.logsRequest(resource: Self.resource, scope: Self.scope, records: records)
        let object = try JSONSerialization.jsonObject(with: Data(request))
        var keys: Set<String> = []
        func collectKeys(_ value: Any) {
            if let object = value as? [String: Any] {
                keys.formUnion(object.keys)
                object.values.forEach(collectKeys)
            } else if let array = value as? [Any] {
                array.forEach(collectKeys)
            }
        }
        collectKeys(object)
        #expect(keys.allSatisfy { $0.first!.isLowercase && $0.allSatisfy { $0.isASCII && $0.isLetter } })
        let resourceLogs = try #require((object as? [String: Any])?["resourceLogs"] as? [[String: Any]])
        let scopeLogs = try #require(resourceLogs.first?["scopeLogs"] as? [[String: Any]])
        let record = try #require((scopeLogs.first?["logRecords"] as? [[String: Any]])?.first)
        #expect(record["timeUnixNano"] as? String == "1700000060000000000")
        #expect(record["observedTimeUnixNano"] as? String == "1700000060000000000")
        #expect(record["severityNumber"] as? Int == 17)
        let attribute = try #require((record["attributes"] as? [[String: Any]])?.first)
        #expect((attribute["value"] as? [String: Any])?["intValue"] as? String == "9223372036854775807")
    }

    @Test func nanAndTheInfinitiesAreTheMappingsStrings() {
        let time = UnixNano.of(Self.time)
        let metrics = [
            OTLPMetric(
                name: "g",
                data: .gauge([.nan, .infinity, -.infinity, -0.0].map { OTLPNumberDataPoint(timeUnixNano: time, value: .double($0)) }))
        ]
        let json = Self.text(OTLPJSON.metricsRequest(resource: OTLPResource(attributes: []), scope: Self.scope, metrics: metrics))
        #expect(json.contains(#""asDouble":"NaN"}"#))
        #expect(json.contains(#""asDouble":"Infinity"}"#))
        #expect(json.contains(#""asDouble":"-Infinity"}"#))
        #expect(json.contains(#""asDouble":-0.0}"#))
        let attributes = [OTLPAttribute("d", .double(.nan)), OTLPAttribute("e", .double(-.infinity))]
        let logs = Self.text(
            OTLPJSON.logsRequest(resource: OTLPResource(attributes: attributes), scope: Self.scope, records: []))
        #expect(logs.contains(#"{"key":"d","value":{"doubleValue":"NaN"}},{"key":"e","value":{"doubleValue":"-Infinity"}}"#))
    }

    @Test func stringsAreEscapedAsJSONRequiresAndOtherTextStaysUTF8() {
        let records = [OTLPLogRecord(time: 0, severity: .debug, severityText: "", body: "a\"b\\c\nd\te\u{1} é🎬")]
        let json = Self.text(OTLPJSON.logsRequest(resource: OTLPResource(attributes: []), scope: Self.scope, records: records))
        #expect(json.contains(#"{"severityNumber":5,"body":{"stringValue":"a\"b\\c\nd\te\u0001 é🎬"}}"#))
    }

    @Test func anEmptyResourceAndNoRecordsStillMakeAWholeRequest() {
        let json = Self.text(OTLPJSON.logsRequest(resource: OTLPResource(attributes: []), scope: OTLPScope(version: "1"), records: []))
        #expect(json == #"{"resourceLogs":[{"resource":{},"scopeLogs":[{"scope":{"name":"beaconctl","version":"1"},"logRecords":[]}]}]}"#)
    }

    @Test func timesAreNanosecondsSinceTheEpochWithinWhatTheProtocolHolds() {
        #expect(UnixNano.of(1) == 1_000_000)
        #expect(UnixNano.of(1_700_000_000_123) == 1_700_000_000_123_000_000)
        #expect(UnixNano.of(0) == 0)
        #expect(UnixNano.of(-5) == 0)
        #expect(UnixNano.of(.max) == .max)
        let record = OTLPLogRecord(time: 2, severity: .fatal, body: "")
        #expect(record.observedTimeUnixNano == record.timeUnixNano)
        #expect(record.severityText == "FATAL")
        #expect(OTLPSeverity.allCases.map(\.rawValue) == [1, 5, 9, 13, 17, 21])
    }

    @Test func eachSignalHasItsPath() {
        #expect(OTLPSignal.logs.path == "/v1/logs")
        #expect(OTLPSignal.metrics.path == "/v1/metrics")
        #expect(OTLPJSON.contentType == "application/json")
    }
}
