/// The instrumentation scope of a collected log record or data point.
struct CollectedScope: Decodable, Sendable, Equatable {
    var name: String
    var version: String
    var attributes: [String: AttributeValue]
}
