extension AdLifecycleEvent {
    /// The history entry of an ad break or ad the playhead entered or left: which one, and where
    /// it sits (the ad break's number in the session and its place in the content in seconds, the
    /// ad's place in its ad break); a start also gives the duration (ms), and an ad's start what
    /// the metadata tells of the ad.
    package var historyEvent: HistoryEvent {
        switch self {
        case .adBreakStarted(let adBreak):
            var details = Self.details(of: adBreak)
            details["duration"] = "\(adBreak.duration)"
            return HistoryEvent(.adBreakStarted, details)
        case .adBreakCompleted(let adBreak):
            return HistoryEvent(.adBreakCompleted, Self.details(of: adBreak))
        case .adStarted(let ad):
            var details = Self.details(of: ad)
            details["duration"] = "\(ad.duration)"
            details["title"] = ad.title
            details["creativeId"] = ad.creativeID
            details["adSystem"] = ad.adSystem
            return HistoryEvent(.adStarted, details)
        case .adCompleted(let ad):
            return HistoryEvent(.adCompleted, Self.details(of: ad))
        case .adSkipped(let ad):
            return HistoryEvent(.adSkipped, Self.details(of: ad))
        }
    }

    private static func details(of adBreak: AdBreakSummary) -> [String: String] {
        ["adBreak": adBreak.id, "index": "\(adBreak.index)", "contentOffset": "\(adBreak.contentOffset)"]
    }

    private static func details(of ad: AdSummary) -> [String: String] {
        ["adBreak": ad.adBreakID, "ad": ad.id, "position": "\(ad.position)"]
    }
}
