/// A tick the session accepted, with where it is in the content and the ad timeline: what the
/// reporters read of the playhead.
package struct PlayheadObservation: Sendable, Equatable {
    package var tick: PlayheadTick
    /// The position in the content alone, stitched ad breaks excluded, in milliseconds (see
    /// `TrackingSession.reportedContentPosition`); nil before the session knows where it starts.
    package var contentPosition: Milliseconds?
    /// The ad break and ad the playhead is in, if any.
    package var placement: AdPlacement?

    package init(tick: PlayheadTick, contentPosition: Milliseconds? = nil, placement: AdPlacement? = nil) {
        self.tick = tick
        self.contentPosition = contentPosition
        self.placement = placement
    }
}

/// Where the playhead is inside an ad break, and inside which of its ads.
package struct AdPlacement: Sendable, Equatable, Codable {
    package var adBreak: AdBreakSummary
    package var ad: AdSummary?
    package var offsetInAdBreak: Milliseconds
    package var offsetInAd: Milliseconds?

    package init(adBreak: AdBreakSummary, ad: AdSummary? = nil, offsetInAdBreak: Milliseconds, offsetInAd: Milliseconds? = nil) {
        self.adBreak = adBreak
        self.ad = ad
        self.offsetInAdBreak = offsetInAdBreak
        self.offsetInAd = offsetInAd
    }

    private enum CodingKeys: String, CodingKey { case adBreak, ad, offsetInAdBreak, offsetInAd }

    package func encode(to encoder: any Encoder) throws {
        // As the status document it is part of: absent values are written as null.
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(adBreak, forKey: .adBreak)
        try container.encode(ad, forKey: .ad)
        try container.encode(offsetInAdBreak, forKey: .offsetInAdBreak)
        try container.encode(offsetInAd, forKey: .offsetInAd)
    }
}
