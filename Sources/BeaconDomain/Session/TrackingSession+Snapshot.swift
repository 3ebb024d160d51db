extension TrackingSession {
    /// Resumes a session from its snapshot. `states` are the reporting states its deliveries left;
    /// every other event is idle. Returns the session and the events whose window was played but
    /// that never fired.
    package static func resuming(
        _ snapshot: SessionSnapshot, states: [EventReference: ReportingState], retention: Milliseconds
    ) -> (session: TrackingSession, due: [Firing]) {
        let played = snapshot.played.compactMap { pair in pair.count == 2 && pair[0] <= pair[1] ? pair[0]...pair[1] : nil }
        // A snapshot of an earlier release holds no timeline: it was on program date time.
        return resuming(
            adBreaks: snapshot.adBreaks, dataRange: snapshot.dataRange, played: played,
            timeline: snapshot.timeline ?? (snapshot.dataRange == nil ? nil : .programDateTime),
            programDateTimeOffset: snapshot.programDateTimeOffset, interstitials: snapshot.interstitials ?? InterstitialLog(), states: states,
            retention: retention)
    }

    /// What a restart needs to resume this session.
    package func snapshot(endpoints: SessionEndpoints, savedAt: Milliseconds) -> SessionSnapshot {
        var snapshot = SessionSnapshot(
            endpoints: endpoints, adBreaks: schedule.adBreaks, dataRange: dataRange,
            played: played.ranges.map { [$0.lowerBound, $0.upperBound] }, playhead: judge.lastPlayhead, savedAt: savedAt,
            timeline: timeline, programDateTimeOffset: programDateTimeOffset)
        snapshot.interstitials = interstitials.isOn ? interstitials : nil
        return snapshot
    }
}
