#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The reply to `events` on the control socket: one JSON line with the whole history, oldest first.
public struct EventHistoryReply: Sendable, Equatable, Codable {
    /// How many entries the daemon keeps; older ones are gone.
    public var capacity: Int
    public var events: [EventEntry]

    public init(capacity: Int, events: [EventEntry]) {
        self.capacity = capacity
        self.events = events
    }

    public func jsonLine() -> String {
        JSONLine.encode(self)
    }

    public static func decode(jsonLine: String) throws -> EventHistoryReply {
        try JSONDecoder().decode(EventHistoryReply.self, from: Data(jsonLine.utf8))
    }
}
