import Foundation

/// An OTLP attribute value (AnyValue), decoded from its OTLP/JSON form, which the collector
/// double's typed views keep: `{"intValue": "2"}` and `{"doubleValue": 2.0}` stay apart, where plain
/// JSON numbers would not (JSONDecoder reads 2.0 as an integer).
enum AttributeValue: Decodable, Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case bytes([UInt8])
    case array([AttributeValue])
    case kvlist([String: AttributeValue])
    /// An AnyValue with no value set.
    case empty

    private enum CodingKeys: String, CodingKey {
        case stringValue, boolValue, intValue, doubleValue, bytesValue, arrayValue, kvlistValue
    }

    private struct ArrayValue: Decodable {
        var values: [AttributeValue]?
    }

    private struct KeyValueList: Decodable {
        struct KeyValue: Decodable {
            var key: String
            var value: AttributeValue?
        }

        var values: [KeyValue]?
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let value = try container.decodeIfPresent(String.self, forKey: .stringValue) {
            self = .string(value)
        } else if let value = try container.decodeIfPresent(Bool.self, forKey: .boolValue) {
            self = .bool(value)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .intValue) {
            guard let value = Int64(text) else {
                throw DecodingError.dataCorruptedError(forKey: .intValue, in: container, debugDescription: "not a 64-bit integer: \(text)")
            }
            self = .int(value)
        } else if let value = try container.decodeIfPresent(Double.self, forKey: .doubleValue) {
            self = .double(value)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .bytesValue) {
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .bytesValue, in: container, debugDescription: "not base64: \(text)")
            }
            self = .bytes(Array(data))
        } else if let list = try container.decodeIfPresent(ArrayValue.self, forKey: .arrayValue) {
            self = .array(list.values ?? [])
        } else if let list = try container.decodeIfPresent(KeyValueList.self, forKey: .kvlistValue) {
            self = .kvlist(Dictionary((list.values ?? []).map { ($0.key, $0.value ?? .empty) }, uniquingKeysWith: { $1 }))
        } else {
            self = .empty
        }
    }

    /// The text of a string value; nil for any other.
    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var description: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .double(let value): "\(value)"
        case .bytes(let value): "bytes\(value)"
        case .array(let values): "\(values)"
        case .kvlist(let values): "\(values)"
        case .empty: "empty"
        }
    }
}

// Literals, so that a test says `record.attributes["ad.id"] == "ad-7"`.
extension AttributeValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int64) { self = .int(value) }
    init(floatLiteral value: Double) { self = .double(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
}
