extension HeartbeatTracker {
    /// The live event's times against a playhead on program date time: its start in overflow mode
    /// `before`, and its end with `playback-stop-on-playback-end` (the whole event's, a live 360
    /// event's post-show included, when given).
    mutating func liveEventTimes(_ tick: PlayheadTick, now: Milliseconds) -> [HeartbeatAction] {
        guard let options = playback?.options, tick.timeline == .programDateTime else { return [] }
        var actions: [HeartbeatAction] = []
        if options.overflowMode == .before, let start = options.liveStartTime, tick.playhead >= start {
            actions += give(.liveProgramStart)
        }
        if settings.playbackStopOnPlaybackEnd, let end = options.live360EndTime ?? options.liveEndTime, tick.playhead >= end {
            actions += liveEventEnded(now: now)
        }
        return actions
    }

    /// The live event ended: a regular one stops the playback; an overflow one plays its
    /// post-slate for `post-slate-duration`, then exits.
    mutating func liveEventEnded(now: Milliseconds) -> [HeartbeatAction] {
        guard let playback else { return [] }
        guard playback.options.liveEventType == .overflow else { return give(.stopPlayback(.liveEventEnd)) }
        guard !playback.given.contains(PlayerNotification.liveEventEnd.onceKey) else { return [] }
        var actions = give(.liveEventEnd)
        let postSlate = settings.postSlateDuration.milliseconds
        if postSlate > 0 {
            self.playback?.postSlateEndsAt = now + postSlate
        } else {
            actions += give(.overflowEventEnd)
        }
        return actions
    }
}
