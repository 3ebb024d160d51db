#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The reply to `events` on the control socket: one JSON line with the whole history, oldest first.
package struct EventHistoryReply: Sendable, Equatable, Codable {
    /// How many entries the daemon keeps; older ones are gone.
    package var capacity: Int
    package var events: [EventEntry]

    package init(capacity: Int, events: [EventEntry]) {
        self.capacity = capacity
        self.events = events
    }

    package func jsonLine() -> String {
        JSONLine.encode(self)
    }

    package static func decode(jsonLine: String) throws -> EventHistoryReply {
        try JSONDecoder().decode(EventHistoryReply.self, from: Data(jsonLine.utf8))
    }
}
