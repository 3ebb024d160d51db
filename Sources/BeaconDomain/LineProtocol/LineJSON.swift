#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes the JSON object of an input line, and says what is wrong with one that cannot be
/// used in words naming the command and the key (`chapter-start: index must be a whole number
/// of 1 or more`), as the player is told and the event history records.
enum LineJSON {
    /// - Parameter form: the object expected, shown when the text is not a JSON object at all.
    static func decode<Value: Decodable>(_: Value.Type, from text: String, command: String, form: String) -> Result<Value, LineError> {
        do {
            return .success(try JSONDecoder().decode(Value.self, from: Data(text.utf8)))
        } catch {
            return .failure(LineError("\(command): " + ((error as? DecodingError).flatMap(describe) ?? "not a JSON object \(form)")))
        }
    }

    /// What is wrong at which key, or nil when the text is not a JSON object at all.
    static func describe(_ error: DecodingError) -> String? {
        switch error {
        case .keyNotFound(let key, let context):
            "missing '\(path(context.codingPath + [key]))'"
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            // The readers in LiberalJSONReading refuse a value at a key in their own words; the
            // decoder's words (a number out of range) may quote the value: bounded.
            "\(path(context.codingPath)) \(context.debugDescription.prefix(120))"
        case .typeMismatch(_, let context) where !context.codingPath.isEmpty:
            "\(path(context.codingPath)) must be an object"
        default:
            nil
        }
    }

    /// The keys down to the value, dotted (`content.length`), each cut to 40 characters: a key
    /// comes from the line, and a reason is logged and quoted back.
    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { key in key.intValue.map { "[\($0)]" } ?? String(key.stringValue.prefix(40)) }.joined(separator: ".")
    }
}
