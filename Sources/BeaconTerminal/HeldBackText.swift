import BeaconDomain
/// How status and `watch` word the tracking events the metadata holds back: withdrawn ads, events
/// waiting for their ad to be confirmed over them, and those never confirmed, with the reason.
enum HeldBackText {
    /// The state column of an event: its reporting state, or why it is held back.
    static func state(of event: TrackingEvent) -> String {
        if event.event.trigger == .unknown { return "unknown" }
        switch event.heldBack {
        case .withdrawn: return "withdrawn"
        case .awaitingConfirmation: return "waiting"
        case .neverConfirmed: return "never"
        case nil: return event.reportingState.rawValue
        }
    }

    /// Why an event is held back, or nil when it is not.
    static func reason(for event: TrackingEvent, in ad: Ad) -> String? {
        let end = "the ad's end (+\(UTCTime.formatSpan(ad.duration)))"
        switch event.heldBack {
        case .withdrawn: return "withdrawn: its ad left the metadata before it played"
        case .awaitingConfirmation: return "beyond \(end): waits for the metadata to extend the ad over it"
        case .neverConfirmed: return "never confirmed: the data range passed \(end) without extending the ad over it"
        case nil: return nil
        }
    }

    /// `2 withdrawn   1 waiting for confirmation   3 never confirmed`, counting the events held
    /// back in `adBreaks`; nil when none is.
    static func summary(of adBreaks: [AdBreak]) -> String? {
        var counts: [HoldReason: Int] = [:]
        for adBreak in adBreaks {
            for ad in adBreak.ads {
                for event in ad.trackingEvents { if let hold = event.heldBack { counts[hold, default: 0] += 1 } }
            }
        }
        guard !counts.isEmpty else { return nil }
        let parts: [(HoldReason, String)] = [
            (.withdrawn, "withdrawn"), (.awaitingConfirmation, "waiting for confirmation"), (.neverConfirmed, "never confirmed"),
        ]
        return parts.compactMap { hold, text in counts[hold].map { "\($0) \(text)" } }.joined(separator: "   ")
    }
}
