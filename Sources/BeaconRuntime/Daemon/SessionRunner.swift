import BeaconDomain

/// Runs the sessions the supervisor asks for, one at a time: each is resumed from the journal or
/// initialized (again after each failure, as the supervisor decides), then its metadata is
/// refreshed until the session ends (an SGAI session's is not: it has no tracking URL). The daemon's core owns the session's state and the
/// supervisor: the runner sends it each step as an event, and stops once it says the session is
/// no longer current.
struct SessionRunner: Sendable {
    let daemon: BeaconDaemon
    /// Session init and metadata requests.
    let client: any HTTPClient
    let time: TimeSource
    let journal: JournalWriter

    /// Until the daemon drains: each session wanted runs until it ends, and is cancelled then.
    func run() async {
        var started: Int?
        while let wanted = await daemon.nextWantedSession(after: started) {
            started = wanted.generation
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.runSession(wanted) }
                await daemon.waitForSessionEnd(wanted.generation)
                group.cancelAll()
            }
        }
    }

    private func runSession(_ wanted: SessionPhase.Initializing) async {
        let generation = wanted.generation
        let settings = await daemon.step { core, _, _ in core.sessionStarting(mediaURL: wanted.mediaURL) }
        let ready: Bool
        let endpoints: SessionEndpoints
        if let snapshot = await journal.savedSession(for: wanted.mediaURL, savedSince: time.now() - settings.retention) {
            let stored = await journal.deliveries(ofSession: snapshot.endpoints.sessionKey)
            endpoints = snapshot.endpoints
            ready = await daemon.step { core, now, wallNow in
                core.sessionResumed(snapshot, stored: stored, generation: generation, now: now, wallNow: wallNow)
            }
        } else {
            guard let initialized = await initialize(wanted, settings: settings) else { return }
            endpoints = initialized
            ready = await daemon.step { core, _, wallNow in core.sessionReady(initialized, generation: generation, wallNow: wallNow) }
        }
        // An SGAI session polls nothing: each asset list the player reports carries its tracking.
        guard ready, endpoints.pollsMetadata else { return }
        await MetadataPoller(client: client, time: time, maxResponseBytes: settings.maxMetadataBytes).run(
            begin: { await daemon.step { core, _, _ in core.beginMetadataRefresh(generation: generation) } },
            requesting: { await daemon.step { core, _, _ in core.metadataRequested() } },
            finished: { round, outcome in
                await daemon.step { core, now, wallNow in core.metadataRefreshed(round, outcome, generation: generation, now: now, wallNow: wallNow) }
            })
    }

    /// Session init, tried again with backoff after each failure until it succeeds, or the session
    /// is replaced, unloaded or drained (nil then). A failure no retry can heal ends it (nil, state `error`).
    private func initialize(_ wanted: SessionPhase.Initializing, settings: DaemonCore.SessionSettings) async -> SessionEndpoints? {
        let mediaURL = wanted.mediaURL
        if let trackingURL = settings.trackingURL {
            return SessionEndpoints(
                mediaURL: mediaURL, manifestURL: mediaURL, trackingURL: trackingURL,
                sessionID: SessionEndpoints.sessionID(in: trackingURL) ?? SessionEndpoints.sessionID(in: mediaURL), dialect: settings.dialect)
        }
        while true {
            let request = await daemon.step { core, _, _ in core.initAttemptStarting(generation: wanted.generation) }
            let failure: SessionInitError
            do {
                let initializer = SessionInitializer(
                    client: client, dialect: settings.dialect, adsParams: request.adsParams, isInitRequest: request.isInitRequest,
                    sgai: request.sgai)
                return try await initializer.start(mediaURL: mediaURL)
            } catch {
                failure = error
            }
            let retryAt = await daemon.step { core, now, wallNow in
                core.initFailed(failure, mediaURL: mediaURL, generation: wanted.generation, now: now, wallNow: wallNow)
            }
            guard !Task.isCancelled, let retryAt else {
                return nil
            }
            do { try await time.sleep(until: retryAt) } catch { return nil }
            guard await daemon.isCurrent(wanted.generation) else { return nil }
        }
    }
}
