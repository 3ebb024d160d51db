import BeaconDomain

/// Checks one request the way the Media Collection API's back end does before it looks at any
/// session: the content type, then the body against the schema of its event type. Each event is
/// judged alone, as Adobe's collection layer does; the order inside a session is
/// ``MediaCollectionSessionLedger``'s.
package enum MediaCollectionSchema {
    /// Which endpoint the request came to.
    package enum Endpoint: Sendable {
        /// `POST /api/v1/sessions`: a `sessionStart` only.
        case sessions
        /// `POST /api/v1/sessions/{sid}/events`: anything but `sessionStart`.
        case events
    }

    /// The event the body carries, or why it is refused (the 400's message).
    package static func check(_ endpoint: Endpoint, contentType: String?, body: [UInt8]) -> Result<MediaCollectionEvent, Refusal> {
        guard let contentType, isJSON(contentType) else {
            return .failure(Refusal("Content-Type must be application/json, not \(contentType ?? "absent")"))
        }
        guard let document = ReceivedJSON.parse(body) else { return .failure(Refusal("the body is not JSON")) }
        guard let members = document.object else { return .failure(Refusal("the body is a JSON \(document.typeName), not an object")) }
        return Result { try event(members, endpoint: endpoint) }.mapError { $0 as? Refusal ?? Refusal("\($0)") }
    }

    /// Why a request is refused, in words for the answer's body and the double's record.
    package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    private static let members: Set<String> = ["eventType", "playerTime", "params", "qoeData", "customMetadata"]

    private static func event(_ body: [String: ReceivedJSON], endpoint: Endpoint) throws(Refusal) -> MediaCollectionEvent {
        if let unknown = body.keys.sorted().first(where: { !members.contains($0) }) { throw Refusal("unknown member \"\(unknown)\"") }
        guard let name = body["eventType"] else { throw Refusal("eventType is missing") }
        guard let raw = name.string, let type = MediaCollectionEventType(rawValue: raw) else { throw Refusal("eventType \(name) is not an event type") }
        switch endpoint {
        case .sessions where type != .sessionStart: throw Refusal("the sessions endpoint takes sessionStart, not \(raw)")
        case .events where type == .sessionStart: throw Refusal("sessionStart goes to the sessions endpoint")
        default: break
        }
        let (playhead, ts) = try playerTime(body["playerTime"])
        let rules = MediaCollectionRequirements.of(type)
        let params = try self.params(body["params"], rules, type)
        let quality = try qoeData(body["qoeData"], rules, type)
        let custom = try customMetadata(body["customMetadata"], rules, type)
        return MediaCollectionEvent(type: type, playhead: playhead, ts: ts, params: params, qoeData: quality, customMetadata: custom)
    }

    private static func playerTime(_ value: ReceivedJSON?) throws(Refusal) -> (Double, Int64) {
        guard let value else { throw Refusal("playerTime is missing") }
        guard let members = value.object else { throw Refusal("playerTime is \(a(value.typeName)), not an object") }
        if let unknown = members.keys.sorted().first(where: { $0 != "playhead" && $0 != "ts" }) { throw Refusal("playerTime has an unknown member \"\(unknown)\"") }
        guard let playhead = members["playhead"] else { throw Refusal("playerTime.playhead is missing") }
        guard let seconds = playhead.number else { throw Refusal("playerTime.playhead is \(a(playhead.typeName)), not a number") }
        guard let ts = members["ts"] else { throw Refusal("playerTime.ts is missing") }
        guard let milliseconds = ts.integer else { throw Refusal("playerTime.ts is \(a(ts.typeName)), not an integer") }
        return (seconds, milliseconds)
    }

    private static func params(
        _ value: ReceivedJSON?, _ rules: MediaCollectionRequirements, _ type: MediaCollectionEventType
    ) throws(Refusal) -> [String: MediaCollectionValue] {
        guard let value else {
            if rules.requiredParams.isEmpty { return [:] }
            throw Refusal("\(type.rawValue) needs params")
        }
        guard rules.paramsAllowed else { throw Refusal("\(type.rawValue) carries no params") }
        guard let params = value.object else { throw Refusal("params is \(a(value.typeName)), not an object") }
        for key in rules.requiredParams.keys.sorted() where params[key] == nil {
            throw Refusal("\(type.rawValue) needs the parameter \(key)")
        }
        for (key, param) in params.sorted(by: { $0.key < $1.key }) {
            guard let expected = rules.requiredParams[key] ?? rules.optionalParams[key] else {
                throw Refusal("\(type.rawValue) takes no parameter \(key)")
            }
            guard expected.admits(param) else { throw Refusal("\(key) is \(a(param.typeName)), not \(a(expected.rawValue))") }
        }
        return params.compactMapValues(\.parameter)
    }

    private static func qoeData(
        _ value: ReceivedJSON?, _ rules: MediaCollectionRequirements, _ type: MediaCollectionEventType
    ) throws(Refusal) -> [String: MediaCollectionValue] {
        guard let value else {
            if let key = rules.requiredQuality.sorted().first { throw Refusal("\(type.rawValue) needs qoeData with \(key)") }
            return [:]
        }
        guard let quality = value.object else { throw Refusal("qoeData is \(a(value.typeName)), not an object") }
        for (key, item) in quality.sorted(by: { $0.key < $1.key }) {
            guard let expected = MediaCollectionRequirements.quality[key] else { throw Refusal("qoeData takes no member \(key)") }
            guard expected.admits(item) else { throw Refusal("\(key) is \(a(item.typeName)), not \(a(expected.rawValue))") }
            if let values = MediaCollectionRequirements.qualityValues[key], let text = item.string, !values.contains(text) {
                throw Refusal("\(key) is \"\(text)\", not one of \(values.sorted().joined(separator: ", "))")
            }
        }
        if let key = rules.requiredQuality.sorted().first(where: { quality[$0] == nil }) { throw Refusal("\(type.rawValue) needs qoeData with \(key)") }
        return quality.compactMapValues(\.parameter)
    }

    private static func customMetadata(
        _ value: ReceivedJSON?, _ rules: MediaCollectionRequirements, _ type: MediaCollectionEventType
    ) throws(Refusal) -> [String: String] {
        guard let value else { return [:] }
        guard rules.customMetadataAllowed else { throw Refusal("\(type.rawValue) carries no customMetadata") }
        guard let members = value.object else { throw Refusal("customMetadata is \(a(value.typeName)), not an object") }
        var metadata: [String: String] = [:]
        for (key, item) in members.sorted(by: { $0.key < $1.key }) {
            guard MediaCollectionRequirements.isCustomMetadataKey(key) else { throw Refusal("customMetadata key \"\(key)\" has characters other than letters, digits, _ and .") }
            guard let text = item.string else { throw Refusal("customMetadata \(key) is \(a(item.typeName)), not a string") }
            metadata[key] = text
        }
        return metadata
    }

    /// `word` with its indefinite article.
    private static func a(_ word: String) -> String {
        (word.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + word
    }

    /// `application/json`, with or without parameters such as a charset.
    private static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return mediaType.filter { !$0.isWhitespace }.lowercased() == "application/json"
    }
}
