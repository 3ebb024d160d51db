/// A tracking event that is due now: its signaling URLs are to be requested.
public struct Firing: Sendable, Equatable {
    package var reference: EventReference
    package var adBreakID: String
    package var adID: String
    package var event: TrackingEventType
    /// The tracking event's start time (program time).
    package var eventStart: Milliseconds
    package var signalingURLs: [String]

    package init(
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
