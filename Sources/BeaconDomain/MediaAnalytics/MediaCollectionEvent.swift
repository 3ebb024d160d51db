#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One Media Collection request body: the event, where the player was and when (`playerTime`),
/// and its parameters. Coded as that body, which is how the offline backlog keeps it.
package struct MediaCollectionEvent: Sendable, Equatable, Codable {
    package var type: MediaCollectionEventType
    /// `playerTime.playhead`, seconds: the content position for VOD, the second of the UTC day for live.
    package var playhead: Double
    /// `playerTime.ts`, epoch milliseconds: strictly increasing within a session.
    package var ts: Milliseconds
    package var params: [String: MediaCollectionValue]
    package var qoeData: [String: MediaCollectionValue]
    /// Only on `sessionStart`, `adStart` and `chapterStart`, the back end reads it nowhere else.
    package var customMetadata: [String: String]

    package init(
        type: MediaCollectionEventType, playhead: Double, ts: Milliseconds, params: [String: MediaCollectionValue] = [:],
        qoeData: [String: MediaCollectionValue] = [:], customMetadata: [String: String] = [:]
    ) {
        self.type = type
        self.playhead = playhead
        self.ts = ts
        self.params = params
        self.qoeData = qoeData
        self.customMetadata = customMetadata
    }

    /// The request body, JSON with sorted keys; empty objects are left out.
    package var body: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers, finite numbers and booleans: encoding cannot fail.
        return (try? encoder.encode(Body(self))).map(Array.init) ?? []
    }

    package func encode(to encoder: any Encoder) throws {
        try Body(self).encode(to: encoder)
    }

    package init(from decoder: any Decoder) throws {
        let body = try Body(from: decoder)
        guard let type = MediaCollectionEventType(rawValue: body.eventType) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown eventType \(body.eventType)"))
        }
        self.init(
            type: type, playhead: body.playerTime.playhead, ts: body.playerTime.ts, params: body.params ?? [:], qoeData: body.qoeData ?? [:],
            customMetadata: body.customMetadata ?? [:])
    }

    private struct Body: Codable {
        struct PlayerTime: Codable {
            var playhead: Double
            var ts: Milliseconds
        }

        var playerTime: PlayerTime
        var eventType: String
        var params: [String: MediaCollectionValue]?
        var qoeData: [String: MediaCollectionValue]?
        var customMetadata: [String: String]?

        init(_ event: MediaCollectionEvent) {
            playerTime = PlayerTime(playhead: event.playhead.isFinite ? event.playhead : 0, ts: event.ts)
            eventType = event.type.rawValue
            params = event.params.isEmpty ? nil : event.params
            qoeData = event.qoeData.isEmpty ? nil : event.qoeData
            customMetadata = event.customMetadata.isEmpty ? nil : event.customMetadata
        }
    }
}
