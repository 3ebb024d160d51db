/// The session's lifecycle as decisions: load, unload, init succeeded or failed, drain. Each
/// transition changes the ``SessionPhase`` and returns what the runtime is to do, in order; it does
/// no I/O itself.
package struct SessionSupervisor: Sendable {
    package private(set) var phase: SessionPhase
    /// Bumped by every load, unload and drain: work tagged with an older generation is stale.
    package private(set) var generation = 0

    /// What the runtime does after a transition.
    package enum Effect: Sendable, Equatable {
        /// The session played so far ended (its snapshot was saved before): say so.
        case ended(SessionEndpoints)
        /// The generation moved on: the session's task stops, and every `load` still waiting is
        /// told that its session was replaced or ended.
        case superseded
        /// Start this init (wake the supervisor loop).
        case initialize(SessionPhase.Initializing)
        /// Init failed and is tried again after `wait`, at the instant `at`.
        case retryInit(mediaURL: String, reason: String, failures: Int, wait: Milliseconds, at: Milliseconds)
        /// Init failed for good.
        case gaveUp(mediaURL: String, reason: String)
        /// The service answered every way without a session, ``plainAfter`` times in a row: the
        /// stream is to be played as it is.
        case playPlain(mediaURL: String, reason: String)
        /// The session is ready: hand it to the player.
        case ready(SessionEndpoints)
        /// The replies of the `load`s waiting for this generation.
        case replyToLoads(generation: Int, Result<SessionEndpoints, SessionInitError>)
        /// ``isSettled`` may have become true: wake who waits for it.
        case settled
        /// No session will be supervised again: the supervisor loop ends.
        case stop
    }

    /// Attempts in a row answered without a session before the stream plays as it is. With the
    /// init backoff (1 s, then 2 s, jittered) the third comes a few seconds after the load, well
    /// within a minute; a network error or a 5xx starts the count again.
    package static let plainAfter = 3

    /// The reason given to a `load` whose session gave way before it was ready.
    package static let supersededReason = "session replaced or ended before it was ready"

    /// A daemon given a media URL at start loads it at once, as generation 0.
    package init(mediaURL: String? = nil) {
        phase = mediaURL.map { .initializing(SessionPhase.Initializing(mediaURL: $0, generation: 0)) } ?? .idle
    }

    package var isSettled: Bool { phase.isSettled }

    /// Whether work of this generation is still wanted.
    package func isCurrent(_ generation: Int) -> Bool {
        generation == self.generation && !isDraining
    }

    package var isDraining: Bool {
        if case .draining = phase { true } else { false }
    }

    /// The init the supervisor loop has not started yet: the one asked for after `started`.
    package func initToStart(after started: Int?) -> SessionPhase.Initializing? {
        guard case .initializing(let initializing) = phase, initializing.generation != started else { return nil }
        return initializing
    }

    // MARK: Transitions

    /// A session for `mediaURL` replaces whatever was there: a new generation. While draining, nothing.
    package mutating func load(_ mediaURL: String) -> [Effect] {
        guard !isDraining else { return [] }
        let ending = end(next: .idle)
        let initializing = SessionPhase.Initializing(mediaURL: mediaURL, generation: generation)
        phase = .initializing(initializing)
        return ending + [.initialize(initializing)]
    }

    /// No session any more.
    package mutating func unload() -> [Effect] {
        guard !isDraining else { return [] }
        return end(next: .idle) + [.settled]
    }

    /// Shutting down: the session ends and none starts again.
    package mutating func drain() -> [Effect] {
        guard !isDraining else { return [] }
        return end(next: .draining) + [.stop, .settled]
    }

    /// An init attempt of `generation` begins.
    package mutating func initAttemptStarting(generation: Int) {
        guard case .initializing(var initializing) = phase, initializing.generation == generation else { return }
        initializing.nextAttemptAt = nil
        phase = .initializing(initializing)
    }

    /// Init succeeded (fresh or resumed from the journal): `session` is played from now on. A
    /// stale result (its generation replaced) is dropped: no effect. A session that polls no
    /// metadata (SGAI) is settled at once; a plain stream is settled where it is decided.
    package mutating func initSucceeded(_ session: ActiveSession) -> [Effect] {
        guard case .initializing(let initializing) = phase, initializing.generation == session.generation else { return [] }
        phase = .active(session)
        let ready: [Effect] = [.ready(session.endpoints), .replyToLoads(generation: session.generation, .success(session.endpoints))]
        return ready + (session.endpoints.pollsMetadata || session.endpoints.isPlain ? [] : [.settled])
    }

    /// An init attempt of `generation` failed at `now`. A failure no retry can heal ends the
    /// session (state `error`); any other is tried again after a backoff drawn from `random`, and
    /// the `load` waiting gets its reply now, saying that init goes on.
    package mutating func initFailed(
        _ failure: SessionInitError, generation: Int, now: Milliseconds, using random: inout some RandomNumberGenerator
    ) -> [Effect] {
        guard case .initializing(var initializing) = phase, initializing.generation == generation else { return [] }
        guard !failure.isPermanent else {
            phase = .failed(reason: failure.reason)
            return [.gaveUp(mediaURL: initializing.mediaURL, reason: failure.reason), .replyToLoads(generation: generation, .failure(failure)), .settled]
        }
        initializing.answeredWithoutSession = failure.answeredWithoutSession ? initializing.answeredWithoutSession + 1 : 0
        if initializing.answeredWithoutSession >= Self.plainAfter {
            phase = .initializing(initializing)
            return [.playPlain(mediaURL: initializing.mediaURL, reason: failure.reason)]
        }
        let wait = initializing.retries.failed(using: &random)
        initializing.nextAttemptAt = now + wait
        phase = .initializing(initializing)
        let failures = initializing.retries.consecutiveFailures
        let retrying = "\(failure.reason); the daemon keeps retrying (attempt \(failures + 1) in \(UTCTime.formatSpan(wait)))"
        return [
            .retryInit(mediaURL: initializing.mediaURL, reason: failure.reason, failures: failures, wait: wait, at: now + wait),
            .replyToLoads(generation: generation, .failure(SessionInitError(reason: retrying))),
            .settled,
        ]
    }

    /// The first metadata request of the active session ended, well or badly.
    package mutating func metadataAttempted(generation: Int) -> [Effect] {
        guard activeSession?.generation == generation, activeSession?.metadata.attempted == false else { return [] }
        activeSession?.metadata.attempted = true
        return [.settled]
    }

    /// The active session, mutated in place: the phase lets go of it meanwhile, so that the
    /// session's storage is not copied. Only the phase's transitions start or end a session.
    package var activeSession: ActiveSession? {
        get { phase.active }
        _modify {
            var session = phase.active
            guard session != nil else {
                yield &session
                return
            }
            phase = .idle
            defer { phase = session.map { .active($0) } ?? .idle }
            yield &session
        }
    }

    private mutating func end(next: SessionPhase) -> [Effect] {
        generation += 1
        let ended = phase.active.map { Effect.ended($0.endpoints) }
        phase = next
        return (ended.map { [$0] } ?? []) + [.superseded]
    }
}
