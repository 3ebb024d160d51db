/// Which tracking events never fired, and why: told when they can no longer fire, at the
/// session's end or when their ad break leaves retention.
extension TrackingSession {
    /// The playback-triggered events not fired of the ad breaks `adBreakIDs` names (all when nil).
    /// Events fired by an action (pause, mute) are left out: not firing is what they do unless asked.
    package func unfired(inAdBreaks adBreakIDs: Set<String>? = nil) -> [UnfiredEvent] {
        var unfired: [UnfiredEvent] = []
        for adBreak in schedule.adBreaks where adBreakIDs?.contains(adBreak.id) ?? true {
            for (adIndex, ad) in adBreak.ads.enumerated() {
                for (eventIndex, event) in ad.trackingEvents.enumerated()
                where event.reportingState == .idle && event.event.trigger != .userAction && event.event.trigger != .unknown {
                    let (reason, around) = whyNotFired(event, in: ad)
                    unfired.append(
                        UnfiredEvent(
                            reference: EventReference(adBreakID: adBreak.id, adIndex: adIndex, eventIndex: eventIndex), adID: ad.id,
                            creativeID: ad.creativeID, event: event.event, window: event.window, reason: reason, played: around))
                }
            }
        }
        return unfired
    }

    /// The reason, from the metadata's hold first, then from what was played around the window.
    private func whyNotFired(_ event: TrackingEvent, in ad: Ad) -> (NotFiredReason, [ClosedRange<Milliseconds>]) {
        let window = event.window
        let before = played.ranges.last { $0.upperBound < window.lowerBound }
        let after = played.ranges.first { $0.lowerBound > window.upperBound }
        let around = [before, after].compactMap { $0 }
        switch event.heldBack {
        case .withdrawn: return (.withdrawn, around)
        case .neverConfirmed, .awaitingConfirmation: return (.neverConfirmed, around)
        case nil: break
        }
        // Played on both sides and not inside: a jump went over it. Only after: playback began past it.
        if before != nil, after != nil { return (.seekedOver, around) }
        if let playhead = judge.lastPlayhead, ad.actionWindow.contains(playhead), playhead < window.lowerBound {
            return (.sessionEndedFirst, around)
        }
        return (.notPlayed, around)
    }
}
