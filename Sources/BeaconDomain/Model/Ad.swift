/// One ad of an ad break, with its tracking events.
public struct Ad: Sendable, Equatable, Codable {
    public var id: String
    public var startTime: Milliseconds
    public var duration: Milliseconds
    public var trackingEvents: [TrackingEvent]
    /// Tracking of its companion ads, icons and verifications: listed, never fired from time.
    public var attachedTracking: [AttachedTracking]

    public init(
        id: String, startTime: Milliseconds, duration: Milliseconds, trackingEvents: [TrackingEvent],
        attachedTracking: [AttachedTracking] = []
    ) {
        self.id = id
        self.startTime = startTime
        self.duration = duration
        self.trackingEvents = trackingEvents
        self.attachedTracking = attachedTracking
    }

    private enum CodingKeys: String, CodingKey { case id, startTime, duration, trackingEvents, attachedTracking }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        startTime = try container.decode(Milliseconds.self, forKey: .startTime)
        duration = try container.decode(Milliseconds.self, forKey: .duration)
        trackingEvents = try container.decode([TrackingEvent].self, forKey: .trackingEvents)
        // Snapshots and status of earlier releases have none.
        attachedTracking = try container.decodeIfPresent([AttachedTracking].self, forKey: .attachedTracking) ?? []
    }

    /// How long after an ad's end a player action still counts as happening in it.
    public static let actionGrace: Milliseconds = 500

    /// The playheads at which a player or user action belongs to this ad.
    public var actionWindow: ClosedRange<Milliseconds> {
        startTime...(startTime + max(duration, 0) + Self.actionGrace)
    }
}
