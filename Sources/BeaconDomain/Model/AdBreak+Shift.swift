extension AdBreak {
    /// The same ad break `amount` later on the timeline: every time in it moved alike.
    package func shifted(by amount: Milliseconds) -> AdBreak {
        var adBreak = self
        adBreak.startTime += amount
        for adIndex in adBreak.ads.indices {
            adBreak.ads[adIndex].startTime += amount
            for eventIndex in adBreak.ads[adIndex].trackingEvents.indices { adBreak.ads[adIndex].trackingEvents[eventIndex].startTime += amount }
            for index in adBreak.ads[adIndex].attachedTracking.indices { adBreak.ads[adIndex].attachedTracking[index].startTime? += amount }
        }
        return adBreak
    }
}
