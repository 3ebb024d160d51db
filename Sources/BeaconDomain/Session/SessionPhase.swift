/// Where the daemon's session is: one value, so that what status and stdin read back cannot
/// contradict itself.
package enum SessionPhase: Sendable {
    /// No session: none asked for, or unloaded.
    case idle
    /// A session asked for (by `load` or the configuration): its init under way or waiting for
    /// its next attempt.
    case initializing(Initializing)
    /// Init failed in a way no retry can heal: why (state `error`).
    case failed(reason: String)
    /// The session is ready: it is played and its metadata refreshed.
    case active(ActiveSession)
    /// The daemon is shutting down: no session any more.
    case draining

    /// A session init and its retries. A network down at boot may come up any time, so init is
    /// tried again, ever less often, until it succeeds: the backoff alone sets the waits.
    package struct Initializing: Sendable, Equatable {
        package var mediaURL: String
        package var generation: Int
        /// The failures in a row and the backoff of the next wait.
        package var retries = RetrySchedule(interval: 0)
        /// When the next attempt is due; nil while one is under way.
        package var nextAttemptAt: Milliseconds?
        /// Attempts in a row whose every way the service answered without a session id.
        package var answeredWithoutSession = 0

        package init(mediaURL: String, generation: Int) {
            self.mediaURL = mediaURL
            self.generation = generation
        }
    }

    /// The session being played, if any.
    package var active: ActiveSession? {
        guard case .active(let session) = self else { return nil }
        return session
    }

    /// Whether no session is starting: none was asked for, init failed (a first time: it is
    /// retried meanwhile), or the session is ready and its first metadata request has ended (or it
    /// polls none: a plain stream, an SGAI session).
    /// Stdin waits for this, so a recorded feed piped in at once is judged against the session's
    /// metadata instead of racing it.
    package var isSettled: Bool {
        switch self {
        case .idle, .failed, .draining: true
        case .initializing(let initializing): initializing.retries.consecutiveFailures > 0
        case .active(let session): session.metadata.attempted || !session.endpoints.pollsMetadata
        }
    }

    /// Whether a session is asked for or played.
    package var hasSession: Bool {
        switch self {
        case .initializing, .active: true
        case .idle, .failed, .draining: false
        }
    }

    /// Init's failures in a row, while it is retried.
    package var initFailures: Int {
        guard case .initializing(let initializing) = self else { return 0 }
        return initializing.retries.consecutiveFailures
    }

    /// When init is tried again, while it waits for that.
    package var nextInitAt: Milliseconds? {
        guard case .initializing(let initializing) = self else { return nil }
        return initializing.nextAttemptAt
    }
}
