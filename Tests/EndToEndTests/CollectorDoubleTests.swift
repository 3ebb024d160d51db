import Foundation
import Testing

/// The collector double, driven from Swift as the telemetry reporter's tests drive it: a valid
/// OTLP/JSON export, gzip-compressed, is accepted and read back flattened, attributes typed;
/// one with a proto field name as a key is refused and the violation named; a scripted 503
/// carries its Retry-After; the double goes down and comes back on its port. The requests are
/// written here by hand from the OTLP specification.
@Suite(.timeLimit(.minutes(3)), .enabled(if: CollectorInterpreter.isAvailable, CollectorInterpreter.skipped))
struct CollectorDoubleTests {
    static let logs = """
        {"resourceLogs": [{
          "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "beaconctl"}}]},
          "scopeLogs": [{
            "scope": {"name": "beaconctl", "version": "1.2.0"},
            "logRecords": [{
              "timeUnixNano": "1700000000123456789",
              "observedTimeUnixNano": "1700000000223456789",
              "severityNumber": 13,
              "severityText": "WARN",
              "body": {"stringValue": "a beacon failed"},
              "attributes": [
                {"key": "ad.id", "value": {"stringValue": "ad-7"}},
                {"key": "http.status", "value": {"intValue": "503"}},
                {"key": "retried", "value": {"boolValue": true}},
                {"key": "latency.seconds", "value": {"doubleValue": 2.0}},
                {"key": "events", "value": {"arrayValue": {"values": [{"stringValue": "start"}, {"intValue": "2"}]}}},
                {"key": "ad", "value": {"kvlistValue": {"values": [{"key": "break", "value": {"stringValue": "mid"}}]}}},
                {"key": "raw", "value": {"bytesValue": "AAE="}}
              ],
              "traceId": "5B8EFFF798038103D269B633813FC60C",
              "spanId": "EEE19B7EC3C1B174"
            }]
          }]
        }]}
        """

    static let metrics = """
        {"resourceMetrics": [{
          "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "beaconctl"}}]},
          "scopeMetrics": [{
            "scope": {"name": "beaconctl"},
            "metrics": [
              {"name": "beacons.sent", "unit": "{beacon}", "sum": {
                "dataPoints": [{"attributes": [{"key": "outcome", "value": {"stringValue": "ok"}}],
                  "startTimeUnixNano": "1700000000000000000", "timeUnixNano": "1700000060000000000", "asInt": "42"}],
                "aggregationTemporality": 2, "isMonotonic": true}},
              {"name": "queue.depth", "gauge": {"dataPoints": [{"timeUnixNano": "1700000060000000000", "asDouble": 3.0}]}},
              {"name": "beacon.latency", "unit": "s", "histogram": {
                "dataPoints": [{"startTimeUnixNano": "1700000000000000000", "timeUnixNano": "1700000060000000000",
                  "count": "3", "sum": 1.5, "bucketCounts": ["1", "2", "0"], "explicitBounds": [0.1, 1.0]}],
                "aggregationTemporality": 1}}
            ]
          }]
        }]}
        """

    static func export(
        _ path: String, _ json: String, to collector: CollectorDouble, gzip: Bool = true
    ) async throws -> RawHTTP.Response {
        var headers = [(name: "Content-Type", value: "application/json"), (name: "X-API-Key", value: "key-1")]
        var body = Array(json.utf8)
        if gzip {
            body = try await gzipped(body)
            headers.append((name: "Content-Encoding", value: "gzip"))
        }
        return try await RawHTTP.request("POST", path, port: collector.port, headers: headers, body: body)
    }

    @Test func aValidGzipLogsExportIsAcceptedAndReadBackFlattened() async throws {
        try await withCollectorDouble { collector in
            #expect(collector.endpoint == "http://127.0.0.1:\(collector.port)")
            let response = try await Self.export("/v1/logs", Self.logs, to: collector)
            #expect(response.status == 200)
            #expect(response.body == "{}")

            let record = try #require(try await collector.logRecords().first)
            #expect(record.accepted && record.request == 0)
            #expect(record.resourceAttributes == ["service.name": "beaconctl"])
            #expect(record.scope == CollectedScope(name: "beaconctl", version: "1.2.0", attributes: [:]))
            // Nanoseconds past 2^53: read exactly, not through a Double.
            #expect(record.timeUnixNano == 1_700_000_000_123_456_789)
            #expect(record.observedTimeUnixNano == 1_700_000_000_223_456_789)
            #expect(record.severityNumber == 13 && record.severityText == "WARN")
            #expect(record.body == "a beacon failed")
            #expect(
                record.attributes == [
                    "ad.id": "ad-7", "http.status": 503, "retried": true, "latency.seconds": .double(2.0),
                    "events": .array(["start", 2]), "ad": .kvlist(["break": "mid"]), "raw": .bytes([0, 1]),
                ])
            #expect(record.traceId == "5b8efff798038103d269b633813fc60c" && record.spanId == "eee19b7ec3c1b174")

            let request = try #require(try await collector.requests().first)
            #expect(request.path == "/v1/logs" && request.method == "POST" && request.encoding == "json")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("content-encoding") == "gzip")
            #expect(request.header("x-api-key") == "key-1")
            #expect(request.bodyBytes == Self.logs.utf8.count && request.wireBytes != request.bodyBytes)
            #expect(request.violations == [] && request.status == 200 && request.accepted)
        }
    }

    @Test func aProtoFieldNameAsAKeyIsRefusedAndNamed() async throws {
        try await withCollectorDouble { collector in
            let snakeCase = Self.logs.replacingOccurrences(of: "\"severityText\"", with: "\"severity_text\"")
            let response = try await Self.export("/v1/logs", snakeCase, to: collector, gzip: false)
            #expect(response.status == 400)
            #expect(response.body.contains("severity_text"), "\(response.body)")

            let request = try #require(try await collector.requests().first)
            #expect(request.status == 400 && !request.accepted)
            #expect(request.violations.count == 1)
            #expect(request.violations.first?.contains("lowerCamelCase: 'severityText'") == true, "\(request.violations)")
            #expect(try await collector.logRecords(acceptedOnly: false).isEmpty)
        }
    }

    @Test func aMetricsExportIsReadBackAsDataPoints() async throws {
        try await withCollectorDouble { collector in
            #expect(try await Self.export("/v1/metrics", Self.metrics, to: collector).status == 200)
            let points = try await collector.metricPoints()
            try #require(points.count == 3)
            let (sent, depth, latency) = (points[0], points[1], points[2])
            #expect(sent.name == "beacons.sent" && sent.unit == "{beacon}" && sent.type == .sum)
            #expect(sent.isMonotonic == true && sent.aggregationTemporality == .cumulative)
            #expect(sent.value == .int(42) && sent.attributes == ["outcome": "ok"])
            #expect(sent.startTimeUnixNano == 1_700_000_000_000_000_000 && sent.timeUnixNano == 1_700_000_060_000_000_000)
            #expect(depth.type == .gauge && depth.value == .double(3.0) && depth.isMonotonic == nil)
            #expect(latency.type == .histogram && latency.aggregationTemporality == .delta)
            #expect(latency.count == 3 && latency.sum == 1.5 && latency.min == nil)
            #expect(latency.bucketCounts == [1, 2, 0] && latency.explicitBounds == [0.1, 1.0])
        }
    }

    @Test func aHangingExportIsAnsweredOnceReleased() async throws {
        try await withCollectorDouble { collector in
            try await collector.script([.hang.only("/v1/logs")])
            let export = Task { try await Self.export("/v1/logs", Self.logs, to: collector) }
            let hanging = try await eventuallyValue("the export to arrive") { try await collector.requests().first }
            #expect(hanging.status == nil && !hanging.accepted)
            #expect(try await collector.logRecords().isEmpty)
            try await collector.releaseHanging()
            #expect(try await export.value.status == 200)
            #expect(try await collector.logRecords().count == 1)
        }
    }

    @Test func aScriptedOutageAnswersAndTheDoubleComesBackOnItsPort() async throws {
        try await withCollectorDouble { collector in
            try await collector.script([.status(503, retryAfter: "2")])
            let refused = try await Self.export("/v1/logs", Self.logs, to: collector)
            #expect(refused.status == 503 && refused.header("Retry-After") == "2")
            #expect(try await collector.logRecords().isEmpty)
            #expect(try await collector.logRecords(acceptedOnly: false).map(\.accepted) == [false])

            await collector.stop()
            await #expect(throws: (any Error).self) { try await Self.export("/v1/logs", Self.logs, to: collector) }

            try await collector.restart()
            #expect(try await Self.export("/v1/logs", Self.logs, to: collector).status == 200)
            let requests = try await collector.requests()
            #expect(requests.map(\.status) == [200], "a run of its own after the restart")
            #expect(try await collector.logRecords().count == 1)
        }
    }
}
