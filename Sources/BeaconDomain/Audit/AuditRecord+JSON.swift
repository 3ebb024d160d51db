#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The audit record as one JSON object: what the journal keeps, `beaconctl audit --json` prints
/// (one per line) and the telemetry reporter's log records carry. Wall-clock times are ISO-8601 UTC;
/// times on the session's timeline are its milliseconds, as the metadata counts them.
extension AuditRecord: Codable {
    enum CodingKeys: String, CodingKey {
        case id, kind = "record", outcome, at, sessionID = "sessionId", dialect, adBreakID = "adBreakId", adID = "adId"
        case creativeID = "creativeId", event, timeline, windowStart, windowEnd, dueAt, played, attempt, urlHost, httpStatus, error
        case latencyMilliseconds = "latencyMs", mayBeResend, reason, notFired
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decodeIfPresent(Milliseconds.self, forKey: .windowStart)
        let end = try container.decodeIfPresent(Milliseconds.self, forKey: .windowEnd)
        let subject = AuditSubject(
            sessionID: try container.decodeIfPresent(String.self, forKey: .sessionID),
            dialect: try container.decodeIfPresent(Dialect.self, forKey: .dialect),
            adBreakID: try container.decodeIfPresent(String.self, forKey: .adBreakID),
            adID: try container.decodeIfPresent(String.self, forKey: .adID),
            creativeID: try container.decodeIfPresent(String.self, forKey: .creativeID),
            event: try container.decodeIfPresent(TrackingEventType.self, forKey: .event),
            timeline: try container.decodeIfPresent(Timeline.self, forKey: .timeline),
            window: start.flatMap { start in end.map { start...max(start, $0) } })
        self.init(
            id: try container.decode(String.self, forKey: .id), kind: try container.decode(Kind.self, forKey: .kind),
            at: try Self.decodeTime(container, .at) ?? 0, subject: subject)
        dueAt = try Self.decodeTime(container, .dueAt)
        played = (try container.decodeIfPresent([[Milliseconds]].self, forKey: .played) ?? []).compactMap { pair in
            pair.count == 2 && pair[0] <= pair[1] ? pair[0]...pair[1] : nil
        }
        attempt = try container.decodeIfPresent(Int.self, forKey: .attempt)
        urlHost = try container.decodeIfPresent(String.self, forKey: .urlHost)
        httpStatus = try container.decodeIfPresent(Int.self, forKey: .httpStatus)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        latencyMilliseconds = try container.decodeIfPresent(Int64.self, forKey: .latencyMilliseconds)
        mayBeResend = try container.decodeIfPresent(Bool.self, forKey: .mayBeResend)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        notFired = try container.decodeIfPresent(NotFiredReason.self, forKey: .notFired)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(outcome, forKey: .outcome)
        try container.encode(UTCTime.format(at), forKey: .at)
        try container.encodeIfPresent(subject.sessionID, forKey: .sessionID)
        try container.encodeIfPresent(subject.dialect, forKey: .dialect)
        try container.encodeIfPresent(subject.adBreakID, forKey: .adBreakID)
        try container.encodeIfPresent(subject.adID, forKey: .adID)
        try container.encodeIfPresent(subject.creativeID, forKey: .creativeID)
        try container.encodeIfPresent(subject.event, forKey: .event)
        try container.encodeIfPresent(subject.timeline, forKey: .timeline)
        try container.encodeIfPresent(subject.window?.lowerBound, forKey: .windowStart)
        try container.encodeIfPresent(subject.window?.upperBound, forKey: .windowEnd)
        try container.encodeIfPresent(dueAt.map(UTCTime.format), forKey: .dueAt)
        if !played.isEmpty { try container.encode(played.map { [$0.lowerBound, $0.upperBound] }, forKey: .played) }
        try container.encodeIfPresent(attempt, forKey: .attempt)
        try container.encodeIfPresent(urlHost, forKey: .urlHost)
        try container.encodeIfPresent(httpStatus, forKey: .httpStatus)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(latencyMilliseconds, forKey: .latencyMilliseconds)
        try container.encodeIfPresent(mayBeResend, forKey: .mayBeResend)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(notFired, forKey: .notFired)
    }

    /// The record as one line of JSON, its members in name order.
    package var jsonLine: String { JSONLine.encode(self) }

    /// The record read back from ``jsonLine``; nil when it is not one.
    package init?(jsonLine: some Collection<UInt8>) {
        guard let record = try? JSONDecoder().decode(AuditRecord.self, from: Data(jsonLine)) else { return nil }
        self = record
    }

    private static func decodeTime(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Milliseconds? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        return UTCTime.parse(text)
    }
}
