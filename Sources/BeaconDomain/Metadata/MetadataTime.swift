/// A time or a duration as the metadata writes it: integer milliseconds, or a fraction of one
/// (`1675135534076.5`), rounded to the nearest millisecond, halves away from zero. Anything that
/// is no number, or that no `Int64` can hold once rounded, is refused.
struct MetadataTime: Codable, Equatable {
    var milliseconds: Milliseconds

    init(_ milliseconds: Milliseconds) {
        self.milliseconds = milliseconds
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Milliseconds.self) {
            milliseconds = integer
            return
        }
        guard let number = try? container.decode(Double.self) else {
            throw DecodingError.typeMismatch(
                Self.self, DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a number"))
        }
        guard let rounded = Self.rounded(number) else {
            // Named by the rejection's second, lenient reading, which finds the number where it is.
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "\(number) is out of range"))
        }
        milliseconds = rounded
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }

    /// `number` rounded to the nearest integer, halves away from zero; nil past `Int64`.
    static func rounded(_ number: Double) -> Milliseconds? {
        number.isFinite ? Milliseconds(exactly: number.rounded()) : nil
    }
}
