extension DaemonCore {
    /// An interstitial's start, asset, position or end: it fires the tracking events its asset
    /// played and moves the ad lifecycle; one the session refuses (an interstitial or asset it was
    /// not told of) is a refused line. Without a session, it is counted like a tick and ignored.
    mutating func observe(
        _ command: InterstitialCommand, line: String, from client: InputClient, now: Milliseconds, wallNow: Milliseconds
    ) -> InputOutcome {
        let before = session?.tracking.interstitials
        guard let observed = session?.observe(command, arrivalTime: now) else {
            counters.ticks += 1
            return .done
        }
        let outcome: (firings: [Firing], adLifecycle: [AdLifecycleEvent])
        switch observed {
        case .failure(let refusal):
            refuse(refusal.reason, line: line, from: client)
            return .refused(refusal.reason)
        case .success(let value): outcome = value
        }
        counters.ticks += 1
        lastTickAt = wallNow
        session?.snapshotDirty = true
        let interstitials = session?.tracking.interstitials
        switch command {
        case .start(let start):
            if let event = interstitials?[start.id] {
                if before?.isOn == false { log(.session, .info, "interstitial mode: the main playhead fires no ad from now on") }
                notify(.interstitialStarted(event))
            }
        case .end(let end):
            if let event = interstitials?[end.id] { notify(.interstitialEnded(event, reason: end.reason)) }
        case .asset, .tick:
            break
        }
        for event in outcome.adLifecycle { notify(.adLifecycle(event)) }
        if let tracking = session?.tracking, let playhead = tracking.judge.lastPlayhead, command.isPosition {
            let tick = PlayheadTick(playhead: playhead, timeline: tracking.timeline ?? .programDateTime)
            notify(.playheadObserved(PlayheadObservation(tick: tick, contentPosition: tracking.reportedContentPosition, placement: session?.placement)))
        }
        dispatch(outcome.firings, now: now, wallNow: wallNow)
        // An interstitial's start, each asset and its end are kept at once: a session without
        // metadata to poll (SGAI) saves no snapshot otherwise, and a restart resumes from them.
        if !command.isTick { saveSnapshot(now: now) }
        return .done
    }
}

extension InterstitialCommand {
    /// Whether the line tells where the interstitial player is (an asset's start, a position).
    var isPosition: Bool {
        switch self {
        case .asset, .tick: true
        case .start, .end: false
        }
    }

    var isTick: Bool {
        if case .tick = self { true } else { false }
    }
}
