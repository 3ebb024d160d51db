import BeaconDomain

/// Steps a ``DaemonCore`` as the daemon's actor does, synchronously, on a clock only the test
/// moves, with the journal and the ad servers played by the test: as with swift-nio's
/// `EmbeddedEventLoop`, nothing happens until the test says so, and ``advance(by:)`` runs the
/// delivery timer at every wake that falls due on the way. No task, no wait, no real time.
///
/// Like the runtime, it writes each decision to its journal before the decision's requests start
/// (they wait in ``requests`` for ``answer(_:where:)``), and hands the core the journal's
/// acknowledgement after the event that wrote it; ``holdsAcknowledgements`` holds them instead,
/// as a slow disk would, until ``acknowledgeWrites()``.
package struct EmbeddedDaemon {
    package private(set) var core: DaemonCore
    /// The monotonic instant now.
    package private(set) var now: Milliseconds = 0
    /// The wall clock, less the monotonic instant.
    package var wallOffset: Milliseconds = 1_700_000_000_000
    /// Each delivery as the journal last wrote it.
    package private(set) var journal: [BeaconDelivery.Key: BeaconDelivery] = [:]
    /// The audit's records, in the order the core asked for them to be written.
    package private(set) var audit: [AuditRecord] = []
    /// The session snapshots saved, in order.
    package private(set) var savedSnapshots: [SessionSnapshot] = []
    /// Requests on the wire, in the order they left: the journal wrote them in flight first.
    package private(set) var requests: [BeaconDelivery] = []
    /// Written and not yet acknowledged, while ``holdsAcknowledgements``.
    package private(set) var unacknowledged: [DeliveryEffects] = []
    package var holdsAcknowledgements = false
    /// Everything the outputs heard, in order.
    package private(set) var notifications: [DaemonNotification] = []
    package private(set) var logLines: [(topic: DaemonLogTopic, line: LogLine)] = []
    /// The reasons of the refused lines the log was asked to show.
    package private(set) var refusedLines: [String] = []
    package private(set) var announcements: [String] = []
    /// The supervisor's transitions that woke a waiter (the session runner, `load`s, stdin).
    package private(set) var wakes: [SessionSupervisor.Effect] = []
    /// When the delivery timer next wakes, as the core last said.
    package private(set) var nextWake: Milliseconds?
    /// The journal's prune cutoffs, in order.
    package private(set) var prunes: [Milliseconds] = []
    /// The drain left no request in flight.
    package private(set) var deliveriesFinished = false
    package private(set) var settings: RuntimeSettings?
    private var acknowledged: [DeliveryEffects] = []
    private var timerSignalled = false

    package init(configuration: DaemonConfiguration, seed: UInt64 = 1) {
        core = DaemonCore(configuration: configuration, random: SeededGenerator(seed: seed))
    }

    package var wallNow: Milliseconds { now + wallOffset }

    /// What `status` shows, on this wall clock.
    package var snapshot: DaemonSnapshot {
        var snapshot = core.snapshot()
        snapshot.wallOffset = wallOffset
        return snapshot
    }

    // MARK: Events

    /// An input line as the player writes it, parsed as the control protocol does; one that does
    /// not parse is refused with the parser's reason.
    @discardableResult
    package mutating func send(_ line: String) -> DaemonCore.InputOutcome {
        switch LineParser.parse(line) {
        case .success(let command):
            return send(command, line: line)
        case .failure(let error):
            run { $0.lineRefused(error.reason, line: line, from: .standardInput) }
            return .refused(error.reason)
        }
    }

    /// An input line, parsed; `line` is what the log shows if it is refused.
    @discardableResult
    package mutating func send(_ command: InputCommand, line: String = "") -> DaemonCore.InputOutcome {
        let (now, wallNow) = (now, wallNow)
        return run { $0.input(command, line: line, from: .standardInput, now: now, wallNow: wallNow) }
    }

    /// The session runner starts the wanted session and its init succeeds with `endpoints`; false
    /// when no session is wanted or it was no longer wanted.
    @discardableResult
    package mutating func startSession(_ endpoints: SessionEndpoints) -> Bool {
        guard case .initializing(let wanted) = core.supervisor.phase else { return false }
        let wallNow = wallNow
        _ = run { $0.sessionStarting(mediaURL: wanted.mediaURL) }
        return run { $0.sessionReady(endpoints, generation: wanted.generation, wallNow: wallNow) }
    }

    /// The session runner resumes the wanted session from a saved snapshot.
    @discardableResult
    package mutating func resumeSession(_ snapshot: SessionSnapshot, stored: [BeaconDelivery]) -> Bool {
        guard case .initializing(let wanted) = core.supervisor.phase else { return false }
        let (now, wallNow) = (now, wallNow)
        _ = run { $0.sessionStarting(mediaURL: wanted.mediaURL) }
        return run { $0.sessionResumed(snapshot, stored: stored, generation: wanted.generation, now: now, wallNow: wallNow) }
    }

    /// One metadata refresh of the active session ends with `outcome`; answers when the next is due.
    @discardableResult
    package mutating func refresh(_ outcome: MetadataRound.Outcome) -> Milliseconds? {
        guard let generation = core.supervisor.phase.active?.generation, let round = run({ $0.beginMetadataRefresh(generation: generation) })
        else { return nil }
        run { $0.metadataRequested() }
        let (now, wallNow) = (now, wallNow)
        return run { $0.metadataRefreshed(round, outcome, generation: generation, now: now, wallNow: wallNow) }
    }

    /// The requests on the wire that `match` end with `outcome`, in one batch, as the pump hands them over.
    package mutating func answer(
        _ outcome: RequestResult.Outcome, retryAfter: String? = nil, where match: (BeaconDelivery) -> Bool = { _ in true }
    ) {
        let answered = requests.filter(match)
        requests.removeAll(where: match)
        let batch = answered.map { delivery in
            (key: delivery.key, result: RequestResult(url: delivery.key.url, outcome: outcome, latencyMilliseconds: 1, retryAfter: retryAfter))
        }
        let (now, wallNow) = (now, wallNow)
        run { $0.requestsEnded(batch, now: now, wallNow: wallNow) }
    }

    /// Moves the clock on by `span`, waking the delivery timer at each wake due on the way.
    package mutating func advance(by span: Milliseconds) {
        let target = now + span
        while let wake = nextWake, wake <= target {
            now = max(now, wake)
            timerSignalled = true
            settle()
        }
        now = target
    }

    /// The journal acknowledges every write it held.
    package mutating func acknowledgeWrites() {
        acknowledged += unacknowledged
        unacknowledged = []
        settle()
    }

    package mutating func reload(_ runtime: RuntimeSettings) {
        run { $0.reload(runtime) }
    }

    package mutating func beginDrain() {
        let (now, wallNow) = (now, wallNow)
        run { $0.beginDrain(now: now, wallNow: wallNow) }
    }

    package mutating func drainTimedOut() {
        run { $0.drainTimedOut() }
    }

    // MARK: Carrying out

    /// Feeds one event to the core and carries out what it decided, then what followed from it: the
    /// journal's acknowledgements and the timer's look at what is due.
    private mutating func run<Answer>(_ event: (inout DaemonCore) -> DaemonStep<Answer>) -> Answer {
        let step = event(&core)
        carryOut(step.actions)
        settle()
        return step.answer
    }

    private mutating func settle() {
        while !acknowledged.isEmpty || timerSignalled {
            if !acknowledged.isEmpty {
                let batch = acknowledged
                acknowledged = []
                for effects in batch { requests += effects.start }
                carryOut(core.journalWrote(batch).actions)
            } else {
                timePassed()
            }
        }
    }

    private mutating func timePassed() {
        timerSignalled = false
        let step = core.timePassed(now: now, wallNow: wallNow)
        nextWake = step.answer
        carryOut(step.actions)
    }

    private mutating func carryOut(_ actions: [DaemonAction]) {
        for action in actions {
            switch action {
            case .log(let topic, let line): logLines.append((topic, line))
            case .logRefusedLine(let reason, _, _): refusedLines.append(reason)
            case .notify(let notification): notifications.append(notification)
            case .announce(let line): announcements.append(line)
            case .wake(let effect, _): wakes.append(effect)
            case .write(let effects, let records):
                audit += records
                write(effects)
            case .audit(let records): audit += records
            case .saveSnapshot(let snapshot): savedSnapshots.append(snapshot)
            case .rewriteJournal(let deliveries, let snapshot):
                for delivery in deliveries { journal[delivery.key] = delivery }
                if let snapshot { savedSnapshots.append(snapshot) }
            case .pruneJournal(let cutoff): prunes.append(cutoff)
            case .wakeDeliveryTimer: timerSignalled = true
            case .finishDeliveries: deliveriesFinished = true
            case .reconfigure(let runtime): settings = runtime
            }
        }
    }

    /// Written now; its requests start once the journal acknowledges it.
    private mutating func write(_ effects: DeliveryEffects) {
        for delivery in effects.persist { journal[delivery.key] = delivery }
        for delivery in effects.start {
            precondition(journal[delivery.key]?.state == .inFlight, "a request left before its delivery was written in flight")
        }
        if holdsAcknowledgements {
            unacknowledged.append(effects)
        } else {
            acknowledged.append(effects)
        }
    }
}
