#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The reason a metadata body was rejected, naming where in the document: `ad break p1, ad a1,
/// event start: duration is not a number of milliseconds` rather than a path of list indexes.
enum MetadataRejection {
    /// Where a rejection is: an ad break, an ad within it, a tracking event within that.
    static func place(adBreak: String, ad: String? = nil, event: String? = nil) -> String {
        var parts = ["ad break \(adBreak)"]
        if let ad { parts.append("ad \(ad)") }
        if let event { parts.append("event \(event)") }
        return parts.joined(separator: ", ")
    }

    /// The reason for a decoding error of `body`. Only on this failure path is the body read once
    /// more, leniently, for the ids the error's coding path holds as list indexes and for the
    /// number no milliseconds can hold (the decoder blames the whole document).
    static func describe(_ error: DecodingError, in body: Data) -> String {
        let outline = try? JSONDecoder().decode(Outline.Document.self, from: body)
        switch error {
        case .keyNotFound(let key, let context):
            let (place, field) = locate(context.codingPath, in: outline)
            let missing = "missing '\(key.stringValue)'" + (field.isEmpty ? "" : " in \(field)")
            return place.isEmpty ? missing : "\(place): \(missing)"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            guard !context.codingPath.isEmpty else { return "the document is not a JSON object" }
            let expected =
                switch type {
                case is String.Type: "a string"
                case is MetadataIdentifier.Type: "a string or an integer"
                case is MetadataTime.Type, is Milliseconds.Type: "a number of milliseconds"
                default: "of the expected type"
                }
            return located(context.codingPath, in: outline, "is not \(expected)")
        case .dataCorrupted(let context):
            guard !context.codingPath.isEmpty else { return outline?.firstOutOfRange() ?? "not valid JSON" }
            return located(context.codingPath, in: outline, "is not valid (\(context.debugDescription))")
        @unknown default:
            return "undecodable"
        }
    }

    private static func located(_ codingPath: [any CodingKey], in outline: Outline.Document?, _ problem: String) -> String {
        let (place, field) = locate(codingPath, in: outline)
        return place.isEmpty ? "\(field) \(problem)" : "\(place): \(field) \(problem)"
    }

    /// Splits a coding path into the place (`ad break p1, ad a1`) and the field within it (`duration`).
    /// An entry without a readable id is named by its position, from 1.
    private static func locate(_ codingPath: [any CodingKey], in outline: Outline.Document?) -> (place: String, field: String) {
        var place: [String] = []
        var field: [String] = []
        var entries = outline?.adBreaks
        for (offset, key) in codingPath.enumerated() {
            let list = offset > 0 ? codingPath[offset - 1].stringValue : ""
            let nextIsIndex = offset + 1 < codingPath.count && codingPath[offset + 1].intValue != nil
            if let index = key.intValue {
                if field.isEmpty, let depth = Outline.lists.firstIndex(of: list) {
                    let entry = entries?.element(at: index)
                    place.append(Outline.Entry.name(entry, depth: depth, index: index))
                    entries = entry?.entries
                } else {
                    field.append("[\(index)]")
                }
            } else if !(nextIsIndex && field.isEmpty && Outline.lists.contains(key.stringValue)) {
                field.append(field.isEmpty ? key.stringValue : ".\(key.stringValue)")
            }
        }
        return (place.joined(separator: ", "), field.joined())
    }

    /// The document read leniently: every field that cannot be read is nil, nothing throws past its
    /// field, and numbers out of range keep how they were read.
    private enum Outline {
        enum Keys: String, CodingKey { case dataRange, start, end, adBreaks, ads, trackingEvents, id, event, startTime, duration }

        /// The lists that nest ad breaks, ads and tracking events, outermost first.
        static let lists = ["adBreaks", "ads", "trackingEvents"]

        /// A number where milliseconds belong: usable, or the number as read (`1e+23`), nil when no
        /// `Double` holds it.
        enum Number: Decodable {
            case usable
            case outOfRange(String?)

            init(from decoder: any Decoder) {
                let container = try? decoder.singleValueContainer()
                if (try? container?.decode(MetadataTime.self)) != nil {
                    self = .usable
                } else if let number = try? container?.decode(Double.self) {
                    self = .outOfRange("\(number)")
                } else {
                    self = .outOfRange(nil)
                }
            }
        }

        struct Document: Decodable {
            var start: Number?
            var end: Number?
            var adBreaks: [Entry]?

            init(from decoder: any Decoder) {
                let container = try? decoder.container(keyedBy: Keys.self)
                let range = (try? container?.nestedContainer(keyedBy: Keys.self, forKey: .dataRange)) ?? nil
                start = range?.lenient(Number.self, .start)
                end = range?.lenient(Number.self, .end)
                adBreaks = container?.lenient([Entry].self, .adBreaks)
            }

            /// The first number, in document order, that no milliseconds can hold: where it is and what it was.
            func firstOutOfRange() -> String? {
                Self.check("dataRange", [("start", start), ("end", end)]) ?? Self.firstOutOfRange(in: adBreaks, depth: 0, within: [])
            }

            private static func firstOutOfRange(in entries: [Entry]?, depth: Int, within place: [String]) -> String? {
                for (index, entry) in (entries ?? []).enumerated() {
                    let here = place + [Entry.name(entry, depth: depth, index: index)]
                    if let found = check(here.joined(separator: ", "), [("startTime", entry.startTime), ("duration", entry.duration)])
                        ?? firstOutOfRange(in: entry.entries, depth: depth + 1, within: here)
                    {
                        return found
                    }
                }
                return nil
            }

            private static func check(_ place: @autoclosure () -> String, _ numbers: [(String, Number?)]) -> String? {
                for case (let field, .outOfRange(let written)?) in numbers {
                    return "\(place()): \(field) \(written.map { "\($0) " } ?? "")is out of range"
                }
                return nil
            }
        }

        /// An ad break, an ad or a tracking event, and the entries it holds (ads, tracking events).
        struct Entry: Decodable {
            var id: String?
            var event: String?
            var startTime: Number?
            var duration: Number?
            var entries: [Entry]?

            init(from decoder: any Decoder) {
                let container = try? decoder.container(keyedBy: Keys.self)
                id = container?.lenient(MetadataIdentifier.self, .id)?.text
                event = container?.lenient(String.self, .event)
                startTime = container?.lenient(Number.self, .startTime)
                duration = container?.lenient(Number.self, .duration)
                entries = container?.lenient([Entry].self, .ads) ?? container?.lenient([Entry].self, .trackingEvents)
            }

            /// `ad break p1`, `ad a1`, `event start`, or the position when the name is unreadable.
            static func name(_ entry: Entry?, depth: Int, index: Int) -> String {
                let label = ["ad break", "ad", "event"][min(depth, 2)]
                return "\(label) \((depth == 2 ? entry?.event : entry?.id) ?? "#\(index + 1)")"
            }
        }
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, nil when it is absent or unreadable.
    fileprivate func lenient<Value: Decodable>(_ type: Value.Type, _ key: Key) -> Value? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}

extension Array {
    fileprivate func element(at index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
