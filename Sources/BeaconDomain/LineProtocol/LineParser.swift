#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Parses the line protocol spoken on stdin and the control socket.
///
/// A playhead is a bare number of epoch milliseconds, `playhead <ms>`, `playhead <ISO-8601 date>`
/// or a JSON object `{"playhead": ms, "at": ms, "rate": x}`, all on program date time; a position
/// on media time is `position <seconds>` or `{"position": s, "at": ms, "rate": x}`; a JSON tick may
/// also carry the quality keys of ``QualityOfService``. Every other line is one word, optionally
/// followed by one argument (`load <media-url>`, `rate <x>`); `load` may end with a JSON object of
/// ``LoadOptions``. The player information lines are in `LineParser+PlayerInformation`, an
/// interstitial's lines and ticks in `LineParser+Interstitials`.
package enum LineParser {
    package static func parse(_ line: String) -> Result<InputCommand, LineError> {
        let text = line.trimmedOfWhitespace
        if text.isEmpty { return .failure(LineError("empty line")) }
        if text.first == "{" { return parseJSONTick(text) }
        if let first = text.first, first.isNumber || first == "-" || first == "+" || first == "." {
            return parseMilliseconds(text).map { .playhead(PlayheadTick(playhead: $0)) }
        }
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let word = String(parts[0])
        let argument = parts.count > 1 ? Substring(parts[1]).trimmedOfWhitespace : nil
        if let information = parsePlayerInformation(word, argument) { return information }
        switch (word, argument) {
        case ("playhead", let value?):
            let time = value.first?.isNumber == true && !value.contains("T") ? parseMilliseconds(value) : parseDate(value)
            return time.map { .playhead(PlayheadTick(playhead: $0)) }
        case ("position", let value?):
            guard let seconds = Double(value) else { return .failure(LineError("'\(value.prefix(40))' is not a number of seconds")) }
            return position(seconds).map { .playhead(PlayheadTick(playhead: $0, timeline: .mediaTime)) }
        case ("load", let argument?): return parseLoad(argument)
        case ("events", nil): return .success(.events(follow: false, after: nil))
        case ("events", let argument?): return parseEventsFollow(argument)
        case ("audit", nil): return .success(.audit(AuditQuery()))
        case ("audit", let argument?):
            guard let query = try? JSONDecoder().decode(AuditQuery.self, from: Data(argument.utf8)) else {
                return .failure(LineError("'audit' takes a JSON query such as {\"sessionId\": \"s1\", \"outcome\": \"not-fired\"}"))
            }
            return .success(.audit(query))
        case ("rate", let value?):
            guard let rate = Double(value), rate.isFinite, rate >= 0 else {
                return .failure(LineError("rate '\(value.prefix(40))' is not a finite non-negative number"))
            }
            return .success(.player(.rate(rate)))
        case ("playhead", nil), ("position", nil), ("load", nil), ("rate", nil):
            return .failure(LineError("'\(word)' needs an argument"))
        case (_, nil):
            if let command = bareCommands[word] { return .success(command) }
            if let action = UserAction(rawValue: word) { return .success(.user(action)) }
            return .failure(LineError("unknown command '\(word.prefix(40))'"))
        case (_, .some):
            if bareCommands[word] != nil || UserAction(rawValue: word) != nil {
                return .failure(LineError("'\(word)' takes no argument"))
            }
            return .failure(LineError("unknown command '\(word.prefix(40))'"))
        }
    }

    private static let bareCommands: [String: InputCommand] = [
        "unload": .unload, "status": .status,
        "play": .player(.play), "pause": .player(.pause), "complete": .player(.complete),
        "seek-start": .player(.seekStart), "seek-end": .player(.seekEnd),
        "buffer-start": .player(.bufferStart), "buffer-end": .player(.bufferEnd),
        "chapter-end": .information(.chapterEnd), "chapter-skip": .information(.chapterSkip),
    ]

    /// `<url>` or `<url> {json}`.
    private static func parseLoad(_ argument: String) -> Result<InputCommand, LineError> {
        guard let space = argument.firstIndex(of: " ") else { return .success(.load(mediaURL: argument)) }
        let url = String(argument[..<space])
        return LoadOptions.parse(argument[space...].trimmedOfWhitespace).map { .load(mediaURL: url, options: $0) }
    }

    /// `follow` or `follow <sequence>`.
    private static func parseEventsFollow(_ argument: String) -> Result<InputCommand, LineError> {
        let words = argument.split(separator: " ", omittingEmptySubsequences: true)
        guard words.first == "follow", words.count <= 2 else {
            return .failure(LineError("'events' takes 'follow' or 'follow <sequence>'"))
        }
        guard words.count == 2 else { return .success(.events(follow: true, after: nil)) }
        guard let sequence = UInt64(words[1]) else {
            return .failure(LineError("'\(words[1].prefix(40))' is not a sequence number"))
        }
        return .success(.events(follow: true, after: sequence))
    }

    static func milliseconds(_ value: Double, name: String) -> Result<Milliseconds, LineError> {
        guard value.isFinite else { return .failure(LineError("\(name) is not finite")) }
        guard value >= 0 else { return .failure(LineError("\(name) is negative")) }
        guard value <= Double(MetadataDocument.latestTime) else { return .failure(LineError("\(name) is after year 9999")) }
        return .success(Milliseconds(value.rounded()))
    }

    /// A position in seconds, as a player's `currentTime` reads, in milliseconds rounded; `name`
    /// says what it is in a refusal.
    static func position(_ seconds: Double, name: String = "position") -> Result<Milliseconds, LineError> {
        milliseconds(seconds * 1000, name: name).flatMap { position in
            MetadataDocument.validMediaTimes.contains(position)
                ? .success(position) : .failure(LineError("\(name) is past \(MetadataDocument.validMediaTimesText) of media time"))
        }
    }

    private static func parseMilliseconds(_ text: String) -> Result<Milliseconds, LineError> {
        guard let value = Double(text) else { return .failure(LineError("'\(text.prefix(40))' is not a number")) }
        return milliseconds(value, name: "playhead")
    }

    private static func parseDate(_ text: String) -> Result<Milliseconds, LineError> {
        if let parsed = UTCTime.parse(text) { return milliseconds(Double(parsed), name: "playhead") }
        return .failure(LineError("'\(text.prefix(40))' is not an ISO-8601 date"))
    }

    private struct JSONTick: Decodable {
        var playhead: Double?
        var position: Double?
        var at: Double?
        var rate: Double?
        /// Read from the same object; nil when it has none of the keys.
        var quality: QualityOfService?
        /// The object is an interstitial's tick, read on its own: nothing else was read.
        var isInterstitial = false

        private enum CodingKeys: String, CodingKey { case playhead, position, at, rate, interstitial }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard !container.contains(.interstitial) else {
                isInterstitial = true
                return
            }
            playhead = try container.decodeIfPresent(Double.self, forKey: .playhead)
            position = try container.decodeIfPresent(Double.self, forKey: .position)
            at = try container.decodeIfPresent(Double.self, forKey: .at)
            rate = try container.decodeIfPresent(Double.self, forKey: .rate)
            let quality = try QualityOfService(from: decoder)
            self.quality = quality.isEmpty ? nil : quality
        }
    }

    private static let jsonTickForms = "not a JSON tick {\"playhead\": ms, \"at\": ms, \"rate\": x} or {\"position\": s, \"at\": ms, \"rate\": x}"

    private static func parseJSONTick(_ text: String) -> Result<InputCommand, LineError> {
        let tick: JSONTick
        do {
            tick = try JSONDecoder().decode(JSONTick.self, from: Data(text.utf8))
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            // A quality key the tick cannot be read with: the reader's own words, naming the key.
            return .failure(LineError("tick: " + (LineJSON.describe(.dataCorrupted(context)) ?? jsonTickForms)))
        } catch {
            return .failure(LineError(jsonTickForms))
        }
        if tick.isInterstitial { return parseInterstitialTick(text) }
        let placed: Result<(Milliseconds, Timeline), LineError>
        switch (tick.playhead, tick.position) {
        case (let playhead?, nil): placed = milliseconds(playhead, name: "playhead").map { ($0, .programDateTime) }
        case (nil, let position?): placed = self.position(position).map { ($0, .mediaTime) }
        case (.some, .some): return .failure(LineError("a tick gives either \"playhead\" or \"position\", not both"))
        case (nil, nil): return .failure(LineError(jsonTickForms))
        }
        let playhead: Milliseconds
        let timeline: Timeline
        switch placed {
        case .success(let value): (playhead, timeline) = value
        case .failure(let error): return .failure(error)
        }
        var observedAt: Milliseconds?
        if let at = tick.at {
            switch milliseconds(at, name: "at") {
            case .success(let value): observedAt = value
            case .failure(let error): return .failure(error)
            }
        }
        if let rate = tick.rate, !(rate.isFinite && rate >= 0) {
            return .failure(LineError("rate is not a finite non-negative number"))
        }
        return .success(.playhead(PlayheadTick(playhead: playhead, observedAt: observedAt, rate: tick.rate, timeline: timeline, quality: tick.quality)))
    }
}

/// Why a line was refused.
package struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmedOfWhitespace: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
