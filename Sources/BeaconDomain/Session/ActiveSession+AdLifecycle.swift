extension ActiveSession {
    /// Takes a playhead tick, placed on the session's timeline once: the tracking events it fires,
    /// and what it did to the ad lifecycle. A tick the session refuses changes neither, and says why.
    package mutating func observe(
        _ tick: PlayheadTick, arrivalTime: Milliseconds
    ) -> Result<(firings: [Firing], adLifecycle: [AdLifecycleEvent]), TickRefusal> {
        tracking.placed(tick).map { placed in
            let firings = tracking.observe(placed, arrivalTime: arrivalTime)
            return (firings, adLifecycle.observe(placed.tick, played: tracking.lastPlayedStretch, in: tracking.schedule))
        }
    }

    /// Where the playhead is in the ad timeline, as of the last tick.
    package var placement: AdPlacement? { adLifecycle.placement }
}
