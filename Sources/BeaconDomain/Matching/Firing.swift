/// A tracking event that is due now: its signaling URLs are to be requested.
public struct Firing: Sendable, Equatable {
    public var reference: EventReference
    public var adBreakID: String
    public var adID: String
    public var event: TrackingEventType
    /// The tracking event's start time (program time).
    public var eventStart: Milliseconds
    public var signalingURLs: [String]

    public init(
        reference: EventReference, adBreakID: String, adID: String, event: TrackingEventType, eventStart: Milliseconds, signalingURLs: [String]
    ) {
        self.reference = reference
        self.adBreakID = adBreakID
        self.adID = adID
        self.event = event
        self.eventStart = eventStart
        self.signalingURLs = signalingURLs
    }
}
