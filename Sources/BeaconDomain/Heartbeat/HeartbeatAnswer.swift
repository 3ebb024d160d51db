#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a heartbeat service answered in a 2xx body, read liberally: a key of the wrong type, an
/// unknown event or a body that is not JSON is left out, never an error; what is read is bounded.
package struct HeartbeatAnswer: Sendable, Equatable {
    /// One timeline event the service sent.
    package enum ServiceEvent: Sendable, Equatable {
        case blackout(PlayerNotification.BlackoutAction, blackoutURL: String?)
        case liveProgramStart
        case liveEventEnd
        case overflowEventEnd
    }

    /// The most events read from one answer; the rest are left out.
    package static let maxEvents = 16
    /// The sync interval the service asks for, in milliseconds, as sent (the tracker bounds it).
    package var syncInterval: Milliseconds?
    package var events: [ServiceEvent]

    package init(syncInterval: Milliseconds? = nil, events: [ServiceEvent] = []) {
        self.syncInterval = syncInterval
        self.events = events
    }

    /// The answer in `body`; an empty answer when it says nothing readable.
    package init(body: [UInt8]) {
        guard !body.isEmpty, let wire = try? JSONDecoder().decode(Wire.self, from: Data(body)) else {
            self.init()
            return
        }
        self.init(syncInterval: wire.syncInterval, events: Array(wire.events.compactMap(\.event).prefix(Self.maxEvents)))
    }

    private struct Wire: Decodable {
        var syncInterval: Milliseconds?
        var events: [WireEvent] = []

        private enum CodingKeys: String, CodingKey { case syncInterval, events }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // A fractional or out-of-range number is read as nothing rather than trapping.
            if let interval = try? container.decode(Double.self, forKey: .syncInterval), interval.isFinite,
                interval >= 0, interval < 1e15 {
                syncInterval = Milliseconds(interval)
            }
            events = (try? container.decode([WireEvent].self, forKey: .events)) ?? []
        }
    }

    /// One element of `events`: nil when it is not an event this reads.
    private struct WireEvent: Decodable {
        var event: ServiceEvent?

        private enum CodingKeys: String, CodingKey { case event, action, blackoutUrl }

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: CodingKeys.self),
                let name = try? container.decode(String.self, forKey: .event)
            else { return }
            switch name {
            case "blackout":
                guard let raw = try? container.decode(String.self, forKey: .action),
                    let action = PlayerNotification.BlackoutAction(rawValue: raw.uppercased())
                else { return }
                // A URL the player could not be sent to safely (not http(s), too long) is left out.
                let url = (try? container.decode(String.self, forKey: .blackoutUrl)).flatMap { URLPolicy.refusal(of: $0) == nil ? $0 : nil }
                event = .blackout(action, blackoutURL: url)
            case "liveProgramStart": event = .liveProgramStart
            case "liveEventEnd": event = .liveEventEnd
            case "overflowEventEnd": event = .overflowEventEnd
            default: return
            }
        }
    }
}
