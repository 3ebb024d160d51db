extension ActiveSession {
    /// What the macros of a firing's signaling URLs are filled from, the firing having occurred at
    /// `occurredAt` on the wall clock.
    package func macroContext(of firing: Firing, occurredAt: Milliseconds) -> MacroContext {
        // A session whose first document has not come yet counts as live, as every session did before timelines.
        MacroContext(
            firing, in: tracking.schedule, timeline: tracking.timeline ?? .programDateTime, dataRange: tracking.dataRange,
            playhead: tracking.judge.lastPlayhead, occurredAt: occurredAt, contentPosition: tracking.contentPosition)
    }
}
