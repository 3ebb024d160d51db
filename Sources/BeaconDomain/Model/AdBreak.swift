/// An ad break: a run of ads stitched into the stream (`adBreaks` in the metadata).
public struct AdBreak: Sendable, Equatable, Codable {
    package var id: String
    public var startTime: Milliseconds
    public var duration: Milliseconds
    package var ads: [Ad]

    public init(id: String, startTime: Milliseconds, duration: Milliseconds, ads: [Ad]) {
        self.id = id
        self.startTime = startTime
        self.duration = duration
        self.ads = ads
    }

    /// The end of the ad break, or of its last ad or event if those run longer.
    package var endTime: Milliseconds {
        var end = startTime + max(duration, 0)
        for ad in ads {
            end = max(end, ad.actionWindow.upperBound)
            for event in ad.trackingEvents { end = max(end, event.window.upperBound) }
        }
        return end
    }
}
