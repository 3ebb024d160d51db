/// One parameter value of a Media Collection request: the back end checks each parameter's JSON
/// type (`media.length` a number, `media.ad.podIndex` an integer, `analytics.enableSSL` a boolean),
/// so the type is kept from the start instead of guessed from text.
package enum MediaCollectionValue: Sendable, Equatable, Codable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case boolean(Bool)

    /// As JSON gives it back: a whole number is an integer, which the API takes wherever it takes a number.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .boolean(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        }
    }
}
