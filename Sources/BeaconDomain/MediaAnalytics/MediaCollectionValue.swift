/// One parameter value of a Media Collection request: the back end checks each parameter's JSON
/// type (`media.length` a number, `media.ad.podIndex` an integer, `analytics.enableSSL` a boolean),
/// so the type is kept from the start instead of guessed from text.
package enum MediaCollectionValue: Sendable, Equatable, Encodable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case boolean(Bool)

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
