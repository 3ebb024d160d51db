extension Ad {
    /// Whether the ad as described holds `event`, so that playback alone may fire it: its start lies
    /// in the ad's action window (start to 500 ms after the end, as Harmonic's own clients fire),
    /// or the ad gives no positive duration to check it against. Live metadata cuts the last ad
    /// at the live edge, so an event beyond it waits for a later document to confirm it.
    package func confirms(_ event: TrackingEvent) -> Bool {
        duration <= 0 || actionWindow.contains(event.startTime)
    }

    /// Whether a document covering `dataRange` describes the ad to its end: a range reaching past
    /// the action window leaves no room to extend the ad later.
    package func isFinal(within dataRange: DataRange) -> Bool {
        dataRange.end > actionWindow.upperBound
    }

    /// Whether the ad was withdrawn from the metadata before any of its events fired.
    package var isWithdrawn: Bool {
        !trackingEvents.isEmpty && trackingEvents.allSatisfy { $0.heldBack == .withdrawn }
    }
}
