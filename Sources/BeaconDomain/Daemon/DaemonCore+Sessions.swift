/// The session's steps as the session runner reports them (starting, each init attempt, init
/// failed or succeeded, resumed from the journal) and its end, with what the log and the outputs
/// hear of each.
extension DaemonCore {
    /// A session starts: what its start reads of the settings.
    package mutating func sessionStarting(mediaURL: String) -> DaemonStep<SessionSettings> {
        step { core in
            core.log(.session, .info, "session starting mediaUrl=\(mediaURL)")
            core.notify(.sessionStarting(mediaURL: mediaURL))
            return SessionSettings(
                trackingURL: core.configuration.trackingURL, dialect: core.configuration.dialect,
                retention: core.configuration.retention.milliseconds, maxMetadataBytes: core.configuration.maxMetadataBytes)
        }
    }

    /// A session init attempt starts: what the latest load and the settings ask of it.
    package mutating func initAttemptStarting(generation: Int) -> DaemonStep<InitRequest> {
        step { core in
            core.supervisor.initAttemptStarting(generation: generation)
            return InitRequest(
                adsParams: core.loadOptions.adsParams, isInitRequest: core.loadOptions.isInitRequest ?? core.configuration.isInitRequest,
                sgai: core.loadOptions.sgai || core.configuration.sgai)
        }
    }

    /// Session init failed at `now`: when to try again, nil when the session of `generation` is no
    /// longer current or no retry can heal the failure.
    package mutating func initFailed(
        _ failure: SessionInitError, mediaURL: String, generation: Int, now: Milliseconds, wallNow: Milliseconds
    ) -> DaemonStep<Milliseconds?> {
        step { core in
            guard core.supervisor.isCurrent(generation) else { return nil }
            core.lastError = "session init: \(failure.reason)"
            core.notify(.sessionFailed(mediaURL: mediaURL, reason: failure.reason))
            let shown = AuditSubject.shownSessionKey(mediaURL)
            core.audit([
                AuditRecord.session(
                    .sessionInitFailed, AuditSubject(sessionID: shown, dialect: core.configuration.dialect), parts: [mediaURL, String(wallNow)],
                    reason: failure.reason, at: wallNow)
            ])
            let effects = core.supervisor.initFailed(failure, generation: generation, now: now, using: &core.random)
            core.perform(effects)
            for case .playPlain(let mediaURL, let reason) in effects {
                let plain = "the service answered \(SessionSupervisor.plainAfter) times without a session id (\(reason)): playing the stream as it is"
                core.log(.session, .warning, "session init gave no session, playing plain mediaUrl=\(mediaURL) reason=\"\(reason)\"")
                _ = core.ready(.plain(mediaURL: mediaURL, reason: plain), tracking: nil, generation: generation, wallNow: wallNow)
                // Nothing is polled: stdin waits for no metadata.
                core.perform([.settled])
            }
            return effects.lazy.compactMap { effect -> Milliseconds? in
                if case .retryInit(_, _, _, _, let at) = effect { at } else { nil }
            }.first
        }
    }

    /// A session saved in the journal resumes, with the reporting states its deliveries (`stored`
    /// and in memory) left its events in; false when it is no longer wanted.
    package mutating func sessionResumed(
        _ snapshot: SessionSnapshot, stored: [BeaconDelivery], generation: Int, now: Milliseconds, wallNow: Milliseconds
    ) -> DaemonStep<Bool> {
        step { core in
            let states = core.deliveries.reportingStates(ofSession: snapshot.endpoints.sessionKey, stored: stored)
            let resumed = TrackingSession.resuming(snapshot, states: states, retention: core.configuration.retention.milliseconds)
            guard core.ready(snapshot.endpoints, tracking: resumed.session, generation: generation, wallNow: wallNow) else { return false }
            core.dispatch(resumed.due, now: now, wallNow: wallNow)
            return true
        }
    }

    /// A session init succeeded: false when it is no longer wanted.
    package mutating func sessionReady(_ endpoints: SessionEndpoints, generation: Int, wallNow: Milliseconds) -> DaemonStep<Bool> {
        step { $0.ready(endpoints, tracking: nil, generation: generation, wallNow: wallNow) }
    }

    private mutating func ready(_ endpoints: SessionEndpoints, tracking: TrackingSession?, generation: Int, wallNow: Milliseconds) -> Bool {
        var matching = tracking ?? TrackingSession(retention: configuration.retention.milliseconds)
        // The player knows from its manifest that the ads come as interstitials; an SGAI session's do.
        if loadOptions.interstitials || endpoints.isSGAI { matching.enterInterstitialMode() }
        if endpoints.isSGAI {
            matching.takesTimelineFromTicks = true
            matching.firesAssetListTracking = true
        }
        let ready = ActiveSession(
            endpoints: endpoints, tracking: matching,
            generation: generation, metadata: MetadataRefresh(interval: configuration.metadataInterval.milliseconds))
        let effects = supervisor.initSucceeded(ready)
        guard !effects.isEmpty else { return false }
        log(
            .session, .info,
            "session \(tracking != nil ? "resumed from the journal" : "ready") sessionId=\(endpoints.sessionID ?? "-") manifestUrl=\(endpoints.manifestURL) trackingUrl=\(endpoints.trackingURL)"
        )
        perform(effects)
        if let session {
            let resumed = tracking != nil ? "resumed from the journal" : nil
            audit([AuditRecord.session(.sessionStart, session.auditSubject, parts: [endpoints.sessionKey, String(wallNow)], reason: resumed, at: wallNow)])
        }
        return true
    }

    /// Ends the current session (or init) and wakes its runner; in-flight beacons go on. A drain
    /// ends it for good.
    mutating func endSession(draining: Bool = false, now: Milliseconds, wallNow: Milliseconds) {
        endAdLifecycle()
        saveSnapshot(now: now)
        auditSessionEnd(wallNow: wallNow)
        perform(draining ? supervisor.drain() : supervisor.unload())
    }

    /// The playback ends: the open ad and ad break are left, told before the session's end.
    mutating func endAdLifecycle() {
        for event in session?.adLifecycle.end() ?? [] { notify(.adLifecycle(event)) }
    }

    /// Saves the session's snapshot when playback or metadata changed since the last save.
    mutating func saveSnapshot(now: Milliseconds) {
        // A plain stream has nothing to resume: a restart asks the service again.
        guard let current = session, current.snapshotDirty, !current.endpoints.isPlain else { return }
        session?.snapshotDirty = false
        actions.append(.saveSnapshot(current.tracking.snapshot(endpoints: current.endpoints, savedAt: now)))
    }

    /// What a session transition decided, in its order: told, then whoever waits on it is woken.
    mutating func perform(_ effects: [SessionSupervisor.Effect]) {
        for effect in effects {
            tell(effect)
            actions.append(.wake(effect, isSettled: supervisor.isSettled))
        }
    }

    private mutating func tell(_ effect: SessionSupervisor.Effect) {
        switch effect {
        case .ended(let endpoints):
            log(.session, .info, "session ended sessionId=\(endpoints.sessionID ?? "-")")
            notify(.sessionEnded(sessionID: endpoints.sessionID))
        case .retryInit(let mediaURL, let reason, let failures, let wait, _):
            log(.session, .error, "session init failed, retrying mediaUrl=\(mediaURL) reason=\"\(reason)\" failures=\(failures) retry_in_ms=\(wait)")
        case .gaveUp(let mediaURL, let reason):
            log(.session, .error, "session init failed, not retried mediaUrl=\(mediaURL) reason=\"\(reason)\"")
        case .ready(let endpoints):
            actions.append(.announce(endpoints.announcement))
            notify(.sessionReady(endpoints))
        case .superseded, .initialize, .replyToLoads, .settled, .stop, .playPlain:
            break
        }
    }
}
