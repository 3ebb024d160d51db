/// One ad of an ad break, with its tracking events.
public struct Ad: Sendable, Equatable, Codable {
    package var id: String
    package var startTime: Milliseconds
    package var duration: Milliseconds
    package var trackingEvents: [TrackingEvent]
    /// Tracking of its companion ads, icons and verifications: listed, never fired from time.
    package var attachedTracking: [AttachedTracking]
    /// The ad's title, creative id and ad system, when the metadata has them: what the ad
    /// lifecycle tells players and media analytics.
    package var title: String?
    package var creativeID: String?
    package var adSystem: String?

    package init(
        id: String, startTime: Milliseconds, duration: Milliseconds, trackingEvents: [TrackingEvent],
        attachedTracking: [AttachedTracking] = [], title: String? = nil, creativeID: String? = nil, adSystem: String? = nil
    ) {
        self.id = id
        self.startTime = startTime
        self.duration = duration
        self.trackingEvents = trackingEvents
        self.attachedTracking = attachedTracking
        self.title = title
        self.creativeID = creativeID
        self.adSystem = adSystem
    }

    private enum CodingKeys: String, CodingKey {
        case id, startTime, duration, trackingEvents, attachedTracking, title, creativeID = "creativeId", adSystem
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        startTime = try container.decode(Milliseconds.self, forKey: .startTime)
        duration = try container.decode(Milliseconds.self, forKey: .duration)
        trackingEvents = try container.decode([TrackingEvent].self, forKey: .trackingEvents)
        // Snapshots and status of earlier releases have none.
        attachedTracking = try container.decodeIfPresent([AttachedTracking].self, forKey: .attachedTracking) ?? []
        title = try container.decodeIfPresent(String.self, forKey: .title)
        creativeID = try container.decodeIfPresent(String.self, forKey: .creativeID)
        adSystem = try container.decodeIfPresent(String.self, forKey: .adSystem)
    }

    /// How long after an ad's end a player action still counts as happening in it.
    package static let actionGrace: Milliseconds = 500

    /// The playheads at which a player or user action belongs to this ad.
    package var actionWindow: ClosedRange<Milliseconds> {
        startTime...(startTime + max(duration, 0) + Self.actionGrace)
    }
}
