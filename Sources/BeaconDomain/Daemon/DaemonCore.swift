/// The daemon's decisions as a value: the session's supervisor, the delivery coordinator, the
/// counters and the settings. It takes one event at a time (a line, a session runner's step, a
/// metadata answer, requests that ended, a journal acknowledgement, the timer, a reload, the
/// drain) with the time, and returns what to do (``DaemonStep``): journal writes, requests to
/// start, log lines, notifications, wake-ups. It does no I/O, never waits and never reads a clock.
package struct DaemonCore: Sendable {
    /// What a session's start reads from the settings, as they are when it starts.
    package struct SessionSettings: Sendable, Equatable {
        /// A fixed tracking URL: no session init then.
        package var trackingURL: String?
        package var dialect: Dialect?
        package var retention: Milliseconds
        package var maxMetadataBytes: Int
    }

    /// What a session init attempt sends, as the latest `load` and the settings say.
    package struct InitRequest: Sendable, Equatable {
        /// MediaTailor's `adsParams`.
        package var adsParams: [String: String]?
        /// Harmonic's init starts with its POST.
        package var isInitRequest: Bool
        /// A MediaTailor SGAI session in client-side reporting.
        package var sgai = false
    }

    /// What the daemon does with an input line.
    package enum InputOutcome: Sendable, Equatable {
        /// Done; the line asks for no reply.
        case done
        /// Refused for this reason (counted already): its sender gets it as an error.
        case refused(String)
        /// A `load` (with these options): its reply waits for the init of the session of this generation.
        case awaitsLoad(generation: Int, options: LoadOptions)
    }

    package internal(set) var configuration: DaemonConfiguration
    /// The session's phase (idle, initializing, error, played, draining) and its generation.
    package internal(set) var supervisor: SessionSupervisor
    /// Every beacon delivery and what becomes of it: due, in flight, and finished ones until retention prunes them.
    package internal(set) var deliveries: DeliveryCoordinator
    package internal(set) var counters = StatusReport.Counters()
    /// The last error of session init or metadata.
    package internal(set) var lastError: String?
    /// When the last tick arrived, on the wall clock: only shown.
    package internal(set) var lastTickAt: Milliseconds?
    /// What the latest `load` gave besides its URL (MediaTailor's `adsParams`).
    var loadOptions = LoadOptions()
    /// Every random draw: backoff jitter, macros.
    var random: any RandomNumberGenerator & Sendable
    /// The actions of the event under way.
    var actions: [DaemonAction] = []

    package init(configuration: DaemonConfiguration, random: any RandomNumberGenerator & Sendable) {
        self.configuration = configuration
        self.random = random
        supervisor = SessionSupervisor(mediaURL: configuration.mediaURL)
        deliveries = DeliveryCoordinator(
            queue: DeliveryQueue(perHostLimit: configuration.maxInFlightPerHost, totalLimit: configuration.maxInFlight),
            retryPolicy: RetryPolicy(backoff: configuration.retryBackoff, maxAge: configuration.beaconMaxAge.milliseconds))
    }

    package var isDraining: Bool { supervisor.isDraining }

    /// The session being played, if any: the supervisor's, mutated in place.
    var session: ActiveSession? {
        get { supervisor.activeSession }
        _modify { yield &supervisor.activeSession }
    }

    // MARK: Input

    /// Does what one parsed input line asks. `line` is the line as written, logged if the daemon
    /// refuses it (a tick outside the session's timeline). `status`, `events` and `reporter` are
    /// answered outside the core, from a snapshot, the event history and the reporters.
    package mutating func input(
        _ command: InputCommand, line: String, from client: InputClient, now: Milliseconds, wallNow: Milliseconds
    ) -> DaemonStep<InputOutcome> {
        step { core in
            switch command {
            case .playhead(let tick):
                return core.observe(tick, line: line, from: client, now: now, wallNow: wallNow)
            case .interstitial(let command):
                return core.observe(command, line: line, from: client, now: now, wallNow: wallNow)
            case .player(let event):
                core.notify(.playerEventObserved(event))
                let firings = core.session?.tracking.observe(event, arrivalTime: now) ?? []
                core.dispatch(firings, now: now, wallNow: wallNow)
            case .user(let action):
                core.notify(.userActionObserved(action))
                let firings = core.session?.tracking.observe(action) ?? []
                core.dispatch(firings, now: now, wallNow: wallNow)
            case .information(let information):
                core.notify(.playerInformed(information))
            case .load(let mediaURL, let options):
                return core.load(mediaURL, options: options, now: now, wallNow: wallNow)
            case .unload:
                if core.supervisor.phase.hasSession { core.log(.session, .info, "unload") }
                core.endSession(now: now, wallNow: wallNow)
            case .status, .events, .reporter, .audit:
                break
            }
            return .done
        }
    }

    /// A line refused before it reached the core (unreadable, too long): counted and told.
    package mutating func lineRefused(_ reason: String, line: String?, from client: InputClient) -> DaemonStep<Void> {
        step { $0.refuse(reason, line: line, from: client) }
    }

    /// A playhead tick: it fires the tracking events it played and moves the ad lifecycle; one the
    /// session refuses (on the other timeline) is a refused line.
    private mutating func observe(
        _ tick: PlayheadTick, line: String, from client: InputClient, now: Milliseconds, wallNow: Milliseconds
    ) -> InputOutcome {
        let observed = session?.observe(tick, arrivalTime: now)
        if case .failure(let refusal)? = observed {
            refuse(refusal.reason, line: line, from: client)
            return .refused(refusal.reason)
        }
        counters.ticks += 1
        lastTickAt = wallNow
        guard case .success(let observed)? = observed else { return .done }
        session?.snapshotDirty = true
        for event in observed.adLifecycle { notify(.adLifecycle(event)) }
        notify(.playheadObserved(PlayheadObservation(tick: tick, contentPosition: session?.tracking.reportedContentPosition, placement: session?.placement)))
        dispatch(observed.firings, now: now, wallNow: wallNow)
        return .done
    }

    mutating func refuse(_ reason: String, line: String?, from client: InputClient) {
        counters.badLines += 1
        actions.append(.logRefusedLine(reason: reason, line: line, from: client))
        notify(.lineRejected(reason: reason))
    }

    private mutating func load(_ mediaURL: String, options: LoadOptions, now: Milliseconds, wallNow: Milliseconds) -> InputOutcome {
        guard !isDraining else { return .refused("shutting down") }
        loadOptions = options
        endAdLifecycle()
        notify(.playbackLoaded(mediaURL: mediaURL, options: options))
        saveSnapshot(now: now)
        auditSessionEnd(wallNow: wallNow)
        perform(supervisor.load(mediaURL))
        return .awaitsLoad(generation: supervisor.generation, options: options)
    }

    // MARK: Settings

    /// A reload: the settings it may change count from their next use on; nothing is lost nor
    /// restarted (sessions, deliveries and the journal go on); the wait under way keeps its length.
    package mutating func reload(_ runtime: RuntimeSettings) -> DaemonStep<Void> {
        step { core in
            core.configuration.take(runtime)
            core.deliveries.setMaxAge(runtime.beaconMaxAge.milliseconds)
            core.session?.metadata.schedule.interval = runtime.metadataInterval.milliseconds
            core.session?.tracking.retention = runtime.retention.milliseconds
            core.actions.append(.reconfigure(runtime))
            // A shorter max age may give up a delivery waiting for its retry: the timer looks again.
            core.actions.append(.wakeDeliveryTimer)
        }
    }

    // MARK: Status

    /// What the core knows and did, for `status`; the runtime adds the journal's health and the log's.
    package func snapshot() -> DaemonSnapshot {
        let phase = supervisor.phase
        var snapshot = DaemonSnapshot(version: configuration.version, phase: DaemonSnapshot.Phase(phase))
        snapshot.lastTickAt = lastTickAt
        snapshot.lastMetadataAt = session?.metadata.lastRefreshedAt
        snapshot.counters = counters
        snapshot.lastError = lastError
        snapshot.initFailures = phase.initFailures
        snapshot.nextInitAt = phase.nextInitAt
        snapshot.deliveries = deliveries.queue.deliveries
        return snapshot
    }

    // MARK: Actions

    /// Runs one event's decisions and hands over the actions they took.
    mutating func step<Answer: Sendable>(_ decide: (inout DaemonCore) -> Answer) -> DaemonStep<Answer> {
        let answer = decide(&self)
        defer { actions = [] }
        return DaemonStep(answer: answer, actions: actions)
    }

    mutating func notify(_ notification: DaemonNotification) {
        actions.append(.notify(notification))
    }

    mutating func log(_ topic: DaemonLogTopic, _ level: LogLine.Level, _ message: @autoclosure @escaping @Sendable () -> String) {
        actions.append(.log(topic, LogLine(level, message())))
    }
}
