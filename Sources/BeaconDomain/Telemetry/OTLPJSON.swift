/// Export requests in OTLP/HTTP's JSON encoding (`Content-Type: application/json`): the
/// protocol's messages in proto3's JSON mapping, as the OTLP specification restricts it. Field
/// names in lowerCamelCase, enums as their numbers, 64-bit integers (times, counts, `intValue`,
/// `asInt`) as decimal strings, doubles as numbers (NaN and the infinities as strings).
///
/// An empty string, a zero time, `false` and no attributes are defaults proto3 lets a writer
/// leave out, and are left out; the values of a data point are always written.
package enum OTLPJSON {
    package static let contentType = "application/json"

    /// The protocol's `AggregationTemporality`: every sum and histogram counts from its start time.
    static let cumulative: Int64 = 2

    /// An `ExportLogsServiceRequest` of `records`, all from `resource` and `scope`.
    package static func logsRequest(resource: OTLPResource, scope: OTLPScope, records: [OTLPLogRecord]) -> [UInt8] {
        request(resource: resource, scope: scope, lists: ("resourceLogs", "scopeLogs", "logRecords"), records) { $0.write($1) }
    }

    /// An `ExportMetricsServiceRequest` of `metrics`, all from `resource` and `scope`.
    package static func metricsRequest(resource: OTLPResource, scope: OTLPScope, metrics: [OTLPMetric]) -> [UInt8] {
        request(resource: resource, scope: scope, lists: ("resourceMetrics", "scopeMetrics", "metrics"), metrics) { $0.write($1) }
    }

    /// The one shape of both requests: one resource holding one scope holding the items.
    private static func request<Item>(
        resource: OTLPResource, scope: OTLPScope, lists: (resource: StaticString, scope: StaticString, items: StaticString),
        _ items: [Item], _ item: (inout JSONBytes, Item) -> Void
    ) -> [UInt8] {
        var json = JSONBytes()
        json.object { json in
            json.member(lists.resource) { json in
                json.array(CollectionOfOne(resource)) { json, resource in
                    json.object { json in
                        json.member("resource") { json in
                            json.object { $0.attributes(resource.attributes) }
                        }
                        json.member(lists.scope) { json in
                            json.array(CollectionOfOne(scope)) { json, scope in
                                json.object { json in
                                    json.member("scope") { $0.write(scope) }
                                    json.member(lists.items) { $0.array(items, item) }
                                }
                            }
                        }
                    }
                }
            }
        }
        return json.bytes
    }
}

extension JSONBytes {
    fileprivate mutating func write(_ scope: OTLPScope) {
        object { json in
            json.text("name", scope.name)
            json.text("version", scope.version)
        }
    }

    fileprivate mutating func write(_ record: OTLPLogRecord) {
        object { json in
            json.time("timeUnixNano", record.timeUnixNano)
            json.time("observedTimeUnixNano", record.observedTimeUnixNano)
            json.member("severityNumber") { $0.integer(Int64(record.severity.rawValue)) }
            json.text("severityText", record.severityText)
            json.member("body") { $0.write(.string(record.body)) }
            json.attributes(record.attributes)
            json.text("eventName", record.eventName ?? "")
        }
    }

    fileprivate mutating func write(_ metric: OTLPMetric) {
        object { json in
            json.member("name") { $0.string(metric.name) }
            json.text("description", metric.description)
            json.text("unit", metric.unit)
            switch metric.data {
            case .sum(let points, let isMonotonic):
                json.member("sum") { json in
                    json.object { json in
                        json.member("dataPoints") { $0.array(points) { $0.write($1) } }
                        json.member("aggregationTemporality") { $0.integer(OTLPJSON.cumulative) }
                        if isMonotonic { json.member("isMonotonic") { $0.bool(true) } }
                    }
                }
            case .gauge(let points):
                json.member("gauge") { json in
                    json.object { json in
                        json.member("dataPoints") { $0.array(points) { $0.write($1) } }
                    }
                }
            case .histogram(let points):
                json.member("histogram") { json in
                    json.object { json in
                        json.member("dataPoints") { $0.array(points) { $0.write($1) } }
                        json.member("aggregationTemporality") { $0.integer(OTLPJSON.cumulative) }
                    }
                }
            }
        }
    }

    fileprivate mutating func write(_ point: OTLPNumberDataPoint) {
        object { json in
            json.attributes(point.attributes)
            json.time("startTimeUnixNano", point.startTimeUnixNano)
            json.time("timeUnixNano", point.timeUnixNano)
            switch point.value {
            case .int(let value): json.member("asInt") { $0.integerString(value) }
            case .double(let value): json.member("asDouble") { $0.number(value) }
            }
        }
    }

    fileprivate mutating func write(_ point: OTLPHistogramDataPoint) {
        object { json in
            json.attributes(point.attributes)
            json.time("startTimeUnixNano", point.startTimeUnixNano)
            json.time("timeUnixNano", point.timeUnixNano)
            json.member("count") { $0.integerString(point.count) }
            json.member("sum") { $0.number(point.sum) }
            json.member("bucketCounts") { $0.array(point.bucketCounts) { $0.integerString($1) } }
            json.member("explicitBounds") { $0.array(point.explicitBounds) { $0.number($1) } }
        }
    }

    /// An `AnyValue`: an object with the one member its kind names.
    fileprivate mutating func write(_ value: OTLPValue) {
        object { json in
            switch value {
            case .string(let text): json.member("stringValue") { $0.string(text) }
            case .bool(let flag): json.member("boolValue") { $0.bool(flag) }
            case .int(let integer): json.member("intValue") { $0.integerString(integer) }
            case .double(let number): json.member("doubleValue") { $0.number(number) }
            case .array(let values):
                json.member("arrayValue") { json in
                    json.object { json in
                        json.member("values") { $0.array(values) { $0.write($1) } }
                    }
                }
            }
        }
    }

    /// The `attributes` member, left out when there are none.
    fileprivate mutating func attributes(_ attributes: [OTLPAttribute]) {
        guard !attributes.isEmpty else { return }
        member("attributes") { json in
            json.array(attributes) { json, attribute in
                json.object { json in
                    json.member("key") { $0.string(attribute.key) }
                    json.member("value") { $0.write(attribute.value) }
                }
            }
        }
    }

    /// A string member, left out when empty.
    fileprivate mutating func text(_ name: StaticString, _ value: String) {
        if !value.isEmpty { member(name) { $0.string(value) } }
    }

    /// A time member, left out when 0 (unknown).
    fileprivate mutating func time(_ name: StaticString, _ nanoseconds: UInt64) {
        if nanoseconds != 0 { member(name) { $0.integerString(nanoseconds) } }
    }
}
