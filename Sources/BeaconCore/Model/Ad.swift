/// One ad of a pod, with its tracking events.
public struct Ad: Sendable, Equatable, Codable {
    public var id: String
    public var startTime: Milliseconds
    public var duration: Milliseconds
    public var trackingEvents: [TrackingEvent]

    public init(id: String, startTime: Milliseconds, duration: Milliseconds, trackingEvents: [TrackingEvent]) {
        self.id = id
        self.startTime = startTime
        self.duration = duration
        self.trackingEvents = trackingEvents
    }

    /// How long after an ad's end a player action still counts as happening in it.
    public static let actionGrace: Milliseconds = 500

    /// The playheads at which a player or user action belongs to this ad.
    public var actionWindow: ClosedRange<Milliseconds> {
        startTime...(startTime + max(duration, 0) + Self.actionGrace)
    }
}
