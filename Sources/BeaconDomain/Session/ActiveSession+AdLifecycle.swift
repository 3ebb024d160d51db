extension ActiveSession {
    /// Takes a playhead tick: the tracking events it fires, and what it did to the ad lifecycle.
    /// A tick the session refuses changes neither.
    package mutating func observe(_ tick: PlayheadTick, arrivalTime: Milliseconds) -> (firings: [Firing], adLifecycle: [AdLifecycleEvent]) {
        let firings = tracking.observe(tick, arrivalTime: arrivalTime)
        guard case .success(let placed) = tracking.placed(tick) else { return (firings, []) }
        return (firings, adLifecycle.observe(placed, played: tracking.lastPlayedStretch, in: tracking.schedule))
    }

    /// Where the playhead is in the ad timeline, as of the last tick.
    package var placement: AdPlacement? { adLifecycle.placement }
}
