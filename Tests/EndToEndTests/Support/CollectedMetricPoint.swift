/// One data point the collector double took, flattened (scripts/otlp-collector/otlp_views.py):
/// with its metric's name, kind and settings, its resource's attributes and its scope.
struct CollectedMetricPoint: Decodable, Sendable, Equatable {
    enum Kind: String, Decodable, Sendable {
        case gauge, sum, histogram, exponentialHistogram, summary
    }

    /// OTLP's AggregationTemporality, by its number.
    enum Temporality: Int, Decodable, Sendable {
        case unspecified = 0, delta = 1, cumulative = 2
    }

    /// A number data point's value, as the double's typed view tags it: `{"asInt": "42"}` or
    /// `{"asDouble": 3.0}`.
    enum Number: Decodable, Sendable, Equatable {
        case int(Int64)
        case double(Double)

        private enum CodingKeys: String, CodingKey {
            case asInt, asDouble
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let text = try container.decodeIfPresent(String.self, forKey: .asInt) {
                guard let value = Int64(text) else {
                    throw DecodingError.dataCorruptedError(forKey: .asInt, in: container, debugDescription: "not a 64-bit integer: \(text)")
                }
                self = .int(value)
            } else {
                self = .double(try container.decode(Double.self, forKey: .asDouble))
            }
        }

        var asDouble: Double {
            switch self {
            case .int(let value): Double(value)
            case .double(let value): value
            }
        }
    }

    var request: Int
    var accepted: Bool
    var resourceAttributes: [String: AttributeValue]
    var scope: CollectedScope
    var name: String
    var description: String
    var unit: String
    var type: Kind
    /// A sum's; nil for other kinds.
    var isMonotonic: Bool?
    /// A sum's or histogram's; nil for a gauge or summary.
    var aggregationTemporality: Temporality?
    var attributes: [String: AttributeValue]
    var startTimeUnixNano: UInt64
    var timeUnixNano: UInt64
    var flags: UInt32
    /// A gauge's or sum's.
    var value: Number?
    /// A histogram's (and a summary's count and sum); min, max and sum nil when not sent.
    var count: UInt64?
    var sum: Double?
    var min: Double?
    var max: Double?
    var bucketCounts: [UInt64]?
    var explicitBounds: [Double]?
}
