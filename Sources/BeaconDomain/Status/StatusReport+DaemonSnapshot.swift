extension StatusReport {
    /// The status document of what the daemon knew at `snapshot`: schedules shown on the wall
    /// clock, the deliveries that status lists in the order it lists them.
    package init(_ snapshot: DaemonSnapshot) {
        let state: String
        var lastError = snapshot.lastError
        var session: DaemonSnapshot.Session?
        switch snapshot.phase {
        case .idle: state = "idle"
        case .initializing: state = "initializing"
        case .failed(let reason):
            state = "error"
            lastError = reason
        case .ready(let ready):
            state = ready.tracking.judge.state.rawValue
            session = ready
        }
        let tracking = session?.tracking
        let wallOffset = snapshot.wallOffset
        self.init(
            version: snapshot.version, state: state, session: session?.endpoints, playhead: tracking?.judge.lastPlayhead,
            lastTickAt: snapshot.lastTickAt, lastMetadataAt: snapshot.lastMetadataAt, dataRange: tracking?.dataRange,
            adBreaks: tracking?.schedule.adBreaks ?? [], counters: snapshot.counters, lastError: lastError,
            metadataFailures: session?.metadataFailures ?? 0, nextMetadataAt: session?.nextMetadataAt.map { $0 + wallOffset },
            initFailures: snapshot.initFailures, nextInitAt: snapshot.nextInitAt.map { $0 + wallOffset },
            deliveries: Self.deliveries(snapshot.deliveries, ofSession: session?.endpoints.sessionKey, wallOffset: wallOffset),
            journal: snapshot.journal, timeline: tracking?.timeline, contentPosition: tracking?.contentPosition,
            adPlacement: session?.adPlacement)
        if let tracking {
            adInsertion = tracking.interstitials.isOn ? "interstitials" : "stitched"
            interstitial = (tracking.interstitials.current ?? tracking.interstitials.events.last).map { InterstitialStatus($0, in: tracking) }
        }
    }

    /// Unfinished deliveries of any session, and the finished ones of the session being played.
    private static func deliveries(
        _ deliveries: [BeaconDelivery.Key: BeaconDelivery], ofSession sessionKey: String?, wallOffset: Milliseconds
    ) -> [Delivery] {
        deliveries.values
            .filter { !$0.state.isFinished || $0.key.sessionKey == sessionKey }
            .sorted { ($0.dueAt, $0.key.adBreakID, $0.key.url) < ($1.dueAt, $1.key.adBreakID, $1.key.url) }
            .map { Delivery($0, wallOffset: wallOffset) }
    }
}
