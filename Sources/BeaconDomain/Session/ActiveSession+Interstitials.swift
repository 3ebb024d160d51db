extension ActiveSession {
    /// Takes an interstitial line: the tracking events it fires and what it did to the ad
    /// lifecycle (an interstitial's end closes the ad break it played). A line the session
    /// refuses changes nothing, and says why.
    package mutating func observe(
        _ command: InterstitialCommand, arrivalTime: Milliseconds
    ) -> Result<(firings: [Firing], adLifecycle: [AdLifecycleEvent]), TickRefusal> {
        tracking.observe(command, arrivalTime: arrivalTime).map { step in
            var lifecycle: [AdLifecycleEvent] = []
            if let placed = step.placed {
                lifecycle = adLifecycle.observe(placed.tick, played: tracking.lastPlayedStretch, in: tracking.schedule)
            }
            if case .end = command { lifecycle += adLifecycle.end() }
            return (step.firings, lifecycle)
        }
    }
}
