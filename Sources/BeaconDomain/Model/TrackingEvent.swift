/// One tracking event of an ad: what happened, when, and the signaling URLs that report it.
package struct TrackingEvent: Sendable, Equatable, Codable {
    package var event: TrackingEventType
    package var startTime: Milliseconds
    package var duration: Milliseconds
    package var signalingURLs: [String]
    package var reportingState: ReportingState
    /// Why the metadata keeps it from firing, if it does.
    package var heldBack: HoldReason?
    /// The signaling URLs the latest metadata gives, when they changed after the event fired:
    /// shown in status, never sent.
    package var currentSignalingURLs: [String]?

    // The wire names, as documents and earlier releases spell them.
    enum CodingKeys: String, CodingKey { case event, startTime, duration, signalingURLs = "signalingUrls", reportingState, heldBack, currentSignalingURLs = "currentSignalingUrls" }

    package init(
        event: TrackingEventType,
        startTime: Milliseconds,
        duration: Milliseconds,
        signalingURLs: [String],
        reportingState: ReportingState = .idle,
        heldBack: HoldReason? = nil,
        currentSignalingURLs: [String]? = nil
    ) {
        self.event = event
        self.startTime = startTime
        self.duration = duration
        self.signalingURLs = signalingURLs
        self.reportingState = reportingState
        self.heldBack = heldBack
        self.currentSignalingURLs = currentSignalingURLs
    }

    /// The shortest firing window: a zero-duration quartile still gets a second of playback to be seen in.
    package static let minimumWindow: Milliseconds = 1000

    /// The instants whose playback fires a playback-triggered event: `[start, start + max(duration, 1 s)]`.
    package var window: ClosedRange<Milliseconds> {
        startTime...(startTime + max(duration, Self.minimumWindow))
    }

    /// What identifies an event within its ad, in one document and across refreshes: its type and
    /// start time. Its signaling URLs are not part of it, so a refresh that re-signs them updates
    /// the event rather than adding another.
    package var key: Key { Key(event: event, startTime: startTime) }

    package struct Key: Hashable, Sendable {
        package var event: TrackingEventType
        package var startTime: Milliseconds
    }
}
