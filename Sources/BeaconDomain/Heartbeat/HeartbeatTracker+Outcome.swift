extension HeartbeatTracker {
    /// What the outcome of `request` changes: the failures in a row, a stop, the service's answer.
    /// An outcome of an earlier playback changes nothing.
    package mutating func record(_ outcome: HeartbeatOutcome, of request: HeartbeatRequest, now: Milliseconds, wallNow: Milliseconds) -> [HeartbeatAction] {
        guard let playback, playback.generation == request.playback, outcome != .notSent else { return [] }
        switch request.kind {
        case .concurrency(let event):
            guard event == .start, case .answered(let status, _) = outcome, status == 409 || status == 429 else { return [] }
            self.playback?.concurrencyOpen = false
            return stop(.concurrencyLimit)
        case .heartbeat:
            switch outcome {
            case .answered(let status, let body) where HTTPStatus.isSuccess(status):
                self.playback?.failuresInARow = 0
                return apply(HeartbeatAnswer(body: body), now: now)
            case .answered(let status, _) where status == 401 || status == 403:
                return stop(.heartbeatRejected)
            case .answered, .failed:
                return failed(outcome.summary)
            case .notSent:
                return []
            }
        }
    }

    private mutating func failed(_ reason: String) -> [HeartbeatAction] {
        guard let playback else { return [] }
        let failures = playback.failuresInARow + 1
        self.playback?.failuresInARow = failures
        let limit = max(settings.maxAllowedFailures, 1)
        guard failures >= limit else { return [] }
        // A playback not yet known as VOD is held to the live rule.
        if playback.isLive != false { return stop(.heartbeatFailures) }
        return failures == limit ? [.warn(failuresInARow: failures, reason: reason)] : []
    }

    /// A 2xx answer: its sync interval from now on, its events to the player.
    private mutating func apply(_ answer: HeartbeatAnswer, now: Milliseconds) -> [HeartbeatAction] {
        if let interval = answer.syncInterval { playback?.answeredSyncInterval = interval }
        var actions: [HeartbeatAction] = []
        for event in answer.events {
            switch event {
            case .blackout(let action, let url): actions += give(.blackout(action, blackoutURL: url))
            case .liveProgramStart: actions += give(.liveProgramStart)
            case .liveEventEnd: actions += liveEventEnded(now: now)
            case .overflowEventEnd:
                playback?.postSlateEndsAt = nil
                actions += give(.overflowEventEnd)
            }
        }
        return actions
    }
}
