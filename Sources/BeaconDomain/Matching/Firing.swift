/// A tracking event that is due now: its signaling URLs are to be requested.
public struct Firing: Sendable, Equatable {
    public var reference: EventReference
    public var podID: String
    public var adID: String
    public var event: TrackingEventType
    /// The tracking event's start time (program time).
    public var eventStart: Milliseconds
    public var signalingUrls: [String]

    public init(
        reference: EventReference, podID: String, adID: String, event: TrackingEventType, eventStart: Milliseconds, signalingUrls: [String]
    ) {
        self.reference = reference
        self.podID = podID
        self.adID = adID
        self.event = event
        self.eventStart = eventStart
        self.signalingUrls = signalingUrls
    }
}
