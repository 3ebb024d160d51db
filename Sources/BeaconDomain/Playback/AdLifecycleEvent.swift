/// An ad break or ad the playhead entered or left, derived from the ad timeline and the playhead:
/// what players are told, what the event history records, and what media analytics reports.
/// Ads are always bookended by their ad break.
package enum AdLifecycleEvent: Sendable, Equatable {
    case adBreakStarted(AdBreakSummary)
    case adStarted(AdSummary)
    /// The playhead reached the ad's end.
    case adCompleted(AdSummary)
    /// The playhead left the ad before its end (a seek out, the end of input).
    case adSkipped(AdSummary)
    case adBreakCompleted(AdBreakSummary)
}

/// An ad break as the ad lifecycle reports it.
package struct AdBreakSummary: Sendable, Equatable, Codable {
    package var id: String
    /// Its position among the session's ad breaks by start time, from 1 (Media Collection's `podIndex`).
    package var index: Int
    /// Its start on the session's timeline, in milliseconds.
    package var startTime: Milliseconds
    package var duration: Milliseconds
    /// Where it sits in the content, ads excluded, in seconds (Media Collection's `podSecond`):
    /// on program date time, the seconds since the playback's first playhead.
    package var contentOffset: Double

    package init(id: String, index: Int, startTime: Milliseconds, duration: Milliseconds, contentOffset: Double) {
        self.id = id
        self.index = index
        self.startTime = startTime
        self.duration = duration
        self.contentOffset = contentOffset
    }
}

/// An ad as the ad lifecycle reports it.
package struct AdSummary: Sendable, Equatable, Codable {
    package var id: String
    package var adBreakID: String
    /// Its position in its ad break, from 1 (Media Collection's `podPosition`).
    package var position: Int
    package var startTime: Milliseconds
    package var duration: Milliseconds
    /// The ad's title, creative id and ad system, when the metadata has them.
    package var title: String?
    package var creativeID: String?
    package var adSystem: String?

    package init(
        id: String, adBreakID: String, position: Int, startTime: Milliseconds, duration: Milliseconds,
        title: String? = nil, creativeID: String? = nil, adSystem: String? = nil
    ) {
        self.id = id
        self.adBreakID = adBreakID
        self.position = position
        self.startTime = startTime
        self.duration = duration
        self.title = title
        self.creativeID = creativeID
        self.adSystem = adSystem
    }

    // The status document's spelling (`adId`, `podId`); absent values are written as null.
    private enum CodingKeys: String, CodingKey {
        case id, adBreakID = "adBreakId", position, startTime, duration, title, creativeID = "creativeId", adSystem
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(adBreakID, forKey: .adBreakID)
        try container.encode(position, forKey: .position)
        try container.encode(startTime, forKey: .startTime)
        try container.encode(duration, forKey: .duration)
        try container.encode(title, forKey: .title)
        try container.encode(creativeID, forKey: .creativeID)
        try container.encode(adSystem, forKey: .adSystem)
    }
}
