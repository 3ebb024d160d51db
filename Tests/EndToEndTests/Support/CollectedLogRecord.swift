/// One log record the collector double took, flattened (scripts/otlp-collector/otlp_views.py):
/// with its resource's attributes and its scope; absent fields are protobuf's defaults.
struct CollectedLogRecord: Decodable, Sendable, Equatable {
    /// The index of the request that carried it (``CollectedRequest/index``).
    var request: Int
    /// Whether that request was answered 2xx.
    var accepted: Bool
    var resourceAttributes: [String: AttributeValue]
    var scope: CollectedScope
    var timeUnixNano: UInt64
    var observedTimeUnixNano: UInt64
    var severityNumber: Int
    var severityText: String
    /// nil when the record has none.
    var body: AttributeValue?
    var attributes: [String: AttributeValue]
    var droppedAttributesCount: UInt32
    var eventName: String
    var flags: UInt32
    /// Lower-case hex; empty when absent.
    var traceId: String
    var spanId: String
}
