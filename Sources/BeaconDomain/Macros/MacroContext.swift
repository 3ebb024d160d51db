/// What one beacon's VAST macros are filled from, fixed when its delivery is made: the moment its
/// tracking event occurred and where that moment sits in the ad, the ad break and the content.
/// A value left nil is unknown for this beacon and expands to `-2`.
public struct MacroContext: Sendable, Equatable {
    /// `[TIMESTAMP]`: when the event occurred, on the wall clock (epoch milliseconds).
    package var occurredAt: Milliseconds
    /// `[ADPLAYHEAD]`: how far into its ad the event occurred.
    package var adPlayhead: Milliseconds?
    /// `[CONTENTPLAYHEAD]`, `[MEDIAPLAYHEAD]`: the content position (the playhead without the
    /// stitched ads before it) when the event occurred.
    package var contentPosition: Milliseconds?
    /// `[BREAKPOSITION]`: 1 for a pre-roll, 2 for a mid-roll.
    package var breakPosition: Int?
    /// `[ADCOUNT]`, `[PODSEQUENCE]`: the ad's place in its ad break, from 1.
    package var adPosition: Int?
    /// `[ERRORCODE]`: the VAST error code an error beacon reports.
    package var errorCode: Int?
    /// `[REASON]`: why verification did not run, for a `verificationNotExecuted` beacon.
    package var reason: Int?

    public init(
        occurredAt: Milliseconds, adPlayhead: Milliseconds? = nil, contentPosition: Milliseconds? = nil, breakPosition: Int? = nil,
        adPosition: Int? = nil, errorCode: Int? = nil, reason: Int? = nil
    ) {
        self.occurredAt = occurredAt
        self.adPlayhead = adPlayhead
        self.contentPosition = contentPosition
        self.breakPosition = breakPosition
        self.adPosition = adPosition
        self.errorCode = errorCode
        self.reason = reason
    }

    /// VAST's `[BREAKPOSITION]` of a pre-roll and of a mid-roll.
    package static let preRoll = 1
    package static let midRoll = 2

    /// The context of a fired tracking event of `schedule`.
    /// - Parameters:
    ///   - occurredAt: when it fired, on the wall clock.
    ///   - playhead: the session's last playhead: where a player or user action occurred.
    ///   - contentPosition: the content position at that moment, when the session knows it.
    public init(
        _ firing: Firing, in schedule: AdSchedule, timeline: Timeline, dataRange: DataRange?, playhead: Milliseconds?,
        occurredAt: Milliseconds, contentPosition: Milliseconds?
    ) {
        self.init(occurredAt: occurredAt, contentPosition: contentPosition)
        if firing.event == .verificationNotExecuted { reason = VerificationNotExecuted.reason }
        guard let adBreak = schedule.adBreak(id: firing.adBreakID), adBreak.ads.indices.contains(firing.reference.adIndex) else { return }
        let ad = adBreak.ads[firing.reference.adIndex]
        // A time-based event occurred at its own time, an action where the player was, one that
        // comes with the impression at the ad's start.
        let moment: Milliseconds =
            switch firing.event.trigger {
            case .playback, .unknown: firing.eventStart
            case .userAction: playhead ?? firing.eventStart
            case .impression: ad.startTime
            }
        adPlayhead = min(max(moment - ad.startTime, 0), max(ad.duration, 0))
        adPosition = 1 + adBreak.ads.count { !$0.isWithdrawn && $0.startTime < ad.startTime }
        breakPosition = Self.breakPosition(of: adBreak, timeline: timeline, dataRange: dataRange)
    }

    /// A live stream's breaks all have content on both sides. On media time, a break at 0 is a
    /// pre-roll and one ending before the known range ends a mid-roll; one reaching the end of the
    /// range may be a post-roll or a mid-roll at the live edge: unknown.
    static func breakPosition(of adBreak: AdBreak, timeline: Timeline, dataRange: DataRange?) -> Int? {
        switch timeline {
        case .programDateTime: return midRoll
        case .mediaTime:
            if adBreak.startTime <= 0 { return preRoll }
            guard let dataRange, adBreak.startTime + max(adBreak.duration, 0) < dataRange.end else { return nil }
            return midRoll
        }
    }
}
