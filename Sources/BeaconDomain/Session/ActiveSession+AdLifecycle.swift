extension ActiveSession {
    /// Takes a playhead tick, placed on the session's timeline once: the tracking events it fires,
    /// and what it did to the ad lifecycle. A tick the session refuses changes neither, and says why.
    package mutating func observe(
        _ tick: PlayheadTick, arrivalTime: Milliseconds
    ) -> Result<(firings: [Firing], adLifecycle: [AdLifecycleEvent]), TickRefusal> {
        tracking.placed(tick).map { placed in
            let firings = tracking.observe(placed, arrivalTime: arrivalTime)
            // While an interstitial plays, the main player waits at its date: the ad lifecycle is the interstitial's.
            guard tracking.interstitials.currentID == nil else { return (firings, []) }
            // In interstitial mode the main stream holds no ad.
            let schedule = tracking.interstitials.isOn ? AdSchedule() : tracking.schedule
            return (firings, adLifecycle.observe(placed.tick, played: tracking.lastPlayedStretch, in: schedule))
        }
    }

    /// Where the playhead is in the ad timeline, as of the last tick.
    package var placement: AdPlacement? { adLifecycle.placement }
}
