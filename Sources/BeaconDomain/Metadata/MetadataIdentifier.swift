/// An ad break's or an ad's id as the metadata writes it: a string, or an integer read as its
/// decimal text (`269098710` is the id `"269098710"`). Any other value is refused.
struct MetadataIdentifier: Codable, Equatable {
    var text: String

    init(_ text: String) {
        self.text = text
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            text = try container.decode(String.self)
            return
        } catch DecodingError.typeMismatch {
            // No string: an integer, maybe. A broken string stays the error it is.
        }
        if let integer = try? container.decode(Int64.self) {
            text = String(integer)
        } else if let integer = try? container.decode(UInt64.self) {
            text = String(integer)
        } else {
            throw DecodingError.typeMismatch(
                Self.self, DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a string or an integer"))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension KeyedDecodingContainer {
    /// What describes an ad (its title, creative id, ad system) as text: a string, or an integer
    /// read as its decimal text. Only shown and reported, so any other value, or an empty one, is
    /// none rather than a reason to refuse the document.
    func descriptiveText(forKey key: Key) -> String? {
        guard let text = (try? decodeIfPresent(MetadataIdentifier.self, forKey: key))??.text, !text.isEmpty else { return nil }
        return text
    }
}
