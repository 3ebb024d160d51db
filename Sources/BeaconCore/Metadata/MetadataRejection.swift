#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The reason a metadata body was rejected, naming where in the document: `ad break p1, ad a1,
/// event start: duration is not an integer` rather than a path of list indexes.
enum MetadataRejection {
    /// Where a rejection is: an ad break, an ad within it, a tracking event within that.
    static func place(pod: String, ad: String? = nil, event: String? = nil) -> String {
        var parts = ["ad break \(pod)"]
        if let ad { parts.append("ad \(ad)") }
        if let event { parts.append("event \(event)") }
        return parts.joined(separator: ", ")
    }

    /// The reason for a decoding error of `body`. Only on this failure path is the body read once
    /// more, leniently, for the ids the error's coding path holds as list indexes and for the
    /// number the decoder could not hold as integer milliseconds (it blames the whole document).
    static func describe(_ error: DecodingError, in body: Data) -> String {
        let outline = try? JSONDecoder().decode(Outline.Document.self, from: body)
        switch error {
        case .keyNotFound(let key, let context):
            let (place, field) = locate(context.codingPath, in: outline)
            let missing = "missing '\(key.stringValue)'" + (field.isEmpty ? "" : " in \(field)")
            return place.isEmpty ? missing : "\(place): \(missing)"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            guard !context.codingPath.isEmpty else { return "the document is not a JSON object" }
            let expected = type == String.self ? "a string" : type == Milliseconds.self ? "an integer" : "of the expected type"
            return located(context.codingPath, in: outline, "is not \(expected)")
        case .dataCorrupted(let context):
            guard !context.codingPath.isEmpty else { return outline?.firstNonInteger() ?? "not valid JSON" }
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
        var pod: Outline.Pod?
        var ad: Outline.Ad?
        for (offset, key) in codingPath.enumerated() {
            let list = offset > 0 ? codingPath[offset - 1].stringValue : ""
            let nextIsIndex = offset + 1 < codingPath.count && codingPath[offset + 1].intValue != nil
            if let index = key.intValue {
                let position = "#\(index + 1)"
                switch list {
                case "adBreaks" where field.isEmpty:
                    pod = outline?.adBreaks?.element(at: index)
                    place.append("ad break \(pod?.id ?? position)")
                case "ads" where field.isEmpty:
                    ad = pod?.ads?.element(at: index)
                    place.append("ad \(ad?.id ?? position)")
                case "trackingEvents" where field.isEmpty:
                    place.append("event \(ad?.trackingEvents?.element(at: index)?.event ?? position)")
                default:
                    field.append("[\(index)]")
                }
            } else if !(nextIsIndex && field.isEmpty && ["adBreaks", "ads", "trackingEvents"].contains(key.stringValue)) {
                field.append(field.isEmpty ? key.stringValue : ".\(key.stringValue)")
            }
        }
        return (place.joined(separator: ", "), field.joined())
    }

    /// The document read leniently: every field that cannot be read is nil, nothing throws past its
    /// field, and numbers keep how they were written when they are no integer.
    private enum Outline {
        enum Keys: String, CodingKey { case dataRange, start, end, adBreaks, ads, trackingEvents, id, event, startTime, duration }

        /// A number where integer milliseconds belong: one, or the number as read (`1.5`, `1e+23`).
        enum Number: Decodable {
            case integer(Milliseconds)
            case other(String)

            init(from decoder: any Decoder) {
                let container = try? decoder.singleValueContainer()
                if let integer = try? container?.decode(Milliseconds.self) {
                    self = .integer(integer)
                } else if let number = try? container?.decode(Double.self) {
                    self = .other("\(number)")
                } else {
                    self = .other("out of range")
                }
            }
        }

        struct Document: Decodable {
            var dataRange: Range?
            var adBreaks: [Pod]?
            init(from decoder: any Decoder) {
                let container = try? decoder.container(keyedBy: Keys.self)
                dataRange = container?.lenient(Range.self, .dataRange)
                adBreaks = container?.lenient([Pod].self, .adBreaks)
            }

            /// The first number, in document order, that is no integer: where it is and what it was.
            func firstNonInteger() -> String? {
                func check(_ place: @autoclosure () -> String, _ numbers: [(String, Number?)]) -> String? {
                    for case (let field, .other(let written)?) in numbers {
                        return "\(place()): \(field) \(written) is not an integer number of milliseconds"
                    }
                    return nil
                }
                if let found = check("dataRange", [("start", dataRange?.start), ("end", dataRange?.end)]) { return found }
                for (podIndex, pod) in (adBreaks ?? []).enumerated() {
                    let podName = pod.id ?? "#\(podIndex + 1)"
                    if let found = check(place(pod: podName), [("startTime", pod.startTime), ("duration", pod.duration)]) { return found }
                    for (adIndex, ad) in (pod.ads ?? []).enumerated() {
                        let adName = ad.id ?? "#\(adIndex + 1)"
                        if let found = check(place(pod: podName, ad: adName), [("startTime", ad.startTime), ("duration", ad.duration)]) {
                            return found
                        }
                        for (eventIndex, event) in (ad.trackingEvents ?? []).enumerated() {
                            let eventPlace = place(pod: podName, ad: adName, event: event.event ?? "#\(eventIndex + 1)")
                            if let found = check(eventPlace, [("startTime", event.startTime), ("duration", event.duration)]) { return found }
                        }
                    }
                }
                return nil
            }
        }

        struct Range: Decodable {
            var start: Number?
            var end: Number?
            init(from decoder: any Decoder) {
                let container = try? decoder.container(keyedBy: Keys.self)
                start = container?.lenient(Number.self, .start)
                end = container?.lenient(Number.self, .end)
            }
        }

        struct Pod: Decodable {
            var id: String?
            var startTime: Number?
            var duration: Number?
            var ads: [Ad]?
            init(from decoder: any Decoder) {
                let container = try? decoder.container(keyedBy: Keys.self)
                id = container?.lenient(String.self, .id)
                startTime = container?.lenient(Number.self, .startTime)
                duration = container?.lenient(Number.self, .duration)
                ads = container?.lenient([Ad].self, .ads)
            }
        }

        struct Ad: Decodable {
            var id: String?
            var startTime: Number?
            var duration: Number?
            var trackingEvents: [Event]?
            init(from decoder: any Decoder) {
                let container = try? decoder.container(keyedBy: Keys.self)
                id = container?.lenient(String.self, .id)
                startTime = container?.lenient(Number.self, .startTime)
                duration = container?.lenient(Number.self, .duration)
                trackingEvents = container?.lenient([Event].self, .trackingEvents)
            }
        }

        struct Event: Decodable {
            var event: String?
            var startTime: Number?
            var duration: Number?
            init(from decoder: any Decoder) {
                let container = try? decoder.container(keyedBy: Keys.self)
                event = container?.lenient(String.self, .event)
                startTime = container?.lenient(Number.self, .startTime)
                duration = container?.lenient(Number.self, .duration)
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
