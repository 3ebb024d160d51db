/// A playback-triggered tracking event that can no longer fire, and why, as things stood then.
package struct UnfiredEvent: Sendable, Equatable {
    package var reference: EventReference
    package var adID: String
    package var creativeID: String?
    package var event: TrackingEventType
    package var window: ClosedRange<Milliseconds>
    package var reason: NotFiredReason
    /// The played stretches nearest its window, one before and one after, when there are.
    package var played: [ClosedRange<Milliseconds>]
}
