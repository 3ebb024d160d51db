import BeaconDomain

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON value of a request body the double received, typed as the Media Collection API's schemas
/// type values: an integer and a number with a fraction are different types there (`ts` must be an
/// integer, `playhead` may be either).
package enum ReceivedJSON: Sendable, Equatable, Decodable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    case number(Double)
    case boolean(Bool)
    case object([String: ReceivedJSON])
    case array([ReceivedJSON])
    case null

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: ReceivedJSON].self) {
            self = .object(value)
        } else {
            self = .array(try container.decode([ReceivedJSON].self))
        }
    }

    /// Parses a whole request body; nil when it is not JSON.
    package static func parse(_ body: [UInt8]) -> ReceivedJSON? {
        try? JSONDecoder().decode(ReceivedJSON.self, from: Data(body))
    }

    package var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The value of a JSON number, integer or not.
    package var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    package var integer: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    package var boolean: Bool? {
        if case .boolean(let value) = self { value } else { nil }
    }

    package var object: [String: ReceivedJSON]? {
        if case .object(let value) = self { value } else { nil }
    }

    /// The value as a request parameter, or nil for an object, an array or null.
    package var parameter: MediaCollectionValue? {
        switch self {
        case .string(let value): .string(value)
        case .integer(let value): .integer(value)
        case .number(let value): .number(value)
        case .boolean(let value): .boolean(value)
        case .object, .array, .null: nil
        }
    }

    /// The JSON type's name, for refusal reasons.
    package var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .number: "number"
        case .boolean: "boolean"
        case .object: "object"
        case .array: "array"
        case .null: "null"
        }
    }

    package var description: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .boolean(let value): String(value)
        case .object(let value): "{" + value.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        case .array(let value): "[" + value.map(\.description).joined(separator: ", ") + "]"
        case .null: "null"
        }
    }
}
