/// One tracking event of an ad: what happened, when, and the signaling URLs that report it.
public struct TrackingEvent: Sendable, Equatable, Codable {
    public var event: TrackingEventType
    public var startTime: Milliseconds
    public var duration: Milliseconds
    public var signalingUrls: [String]
    public var reportingState: ReportingState

    public init(
        event: TrackingEventType,
        startTime: Milliseconds,
        duration: Milliseconds,
        signalingUrls: [String],
        reportingState: ReportingState = .idle
    ) {
        self.event = event
        self.startTime = startTime
        self.duration = duration
        self.signalingUrls = signalingUrls
        self.reportingState = reportingState
    }

    /// The shortest firing window: a zero-duration quartile still gets a second of playback to be seen in.
    public static let minimumWindow: Milliseconds = 1000

    /// The instants whose playback fires a playback-triggered event: `[start, start + max(duration, 1 s)]`.
    public var window: ClosedRange<Milliseconds> {
        startTime...(startTime + max(duration, Self.minimumWindow))
    }

    /// What identifies an event across metadata refreshes within its ad.
    public var key: Key { Key(event: event, startTime: startTime, signalingUrls: signalingUrls) }

    public struct Key: Hashable, Sendable {
        public var event: TrackingEventType
        public var startTime: Milliseconds
        public var signalingUrls: [String]
    }
}
