/// One entry of the audit: a step of a tracking event's story (it became due, a request was
/// attempted, a signaling URL was given up, it never fired) or of a session's (started, ended, its
/// init failed), with what an ad-ops engineer needs to answer a disputed count.
package struct AuditRecord: Sendable, Equatable {
    package enum Kind: String, Sendable, Codable, CaseIterable {
        case sessionStart = "session-start"
        case sessionEnd = "session-end"
        case sessionInitFailed = "session-init-failed"
        /// The tracking event fired: its signaling URLs are to be requested.
        case due
        /// One request of one signaling URL ended.
        case attempt
        case givenUp = "given-up"
        case notFired = "not-fired"
    }

    /// Stable across restarts and re-sends (see ``AuditRecordID``): a back end drops duplicates by it.
    package var id: String
    package var kind: Kind
    /// When it happened, on the wall clock.
    package var at: Milliseconds
    package var subject: AuditSubject
    /// When the tracking event became due, on the wall clock.
    package var dueAt: Milliseconds?
    /// The played stretches of the session's timeline that made it due, or, for an event that never
    /// fired, those around its window.
    package var played: [ClosedRange<Milliseconds>] = []
    /// The request's number among the signaling URL's requests, from 1.
    package var attempt: Int?
    package var urlHost: String?
    package var httpStatus: Int?
    /// Why the request got no HTTP answer.
    package var error: String?
    package var latencyMilliseconds: Int64?
    /// A request was on the wire when the daemon stopped before this one: the server may have had it twice.
    package var mayBeResend: Bool?
    /// Why a signaling URL was given up, or a session init failed.
    package var reason: String?
    package var notFired: NotFiredReason?

    package init(id: String, kind: Kind, at: Milliseconds, subject: AuditSubject) {
        self.id = id
        self.kind = kind
        self.at = at
        self.subject = subject
    }

    /// What became of the tracking event, as `--outcome` filters; nil for session records and `due`.
    package var outcome: AuditOutcome? {
        switch kind {
        case .attempt: httpStatus.map(HTTPStatus.isSuccess) == true ? .delivered : .failed
        case .givenUp: .givenUp
        case .notFired: .notFired
        case .sessionStart, .sessionEnd, .sessionInitFailed, .due: nil
        }
    }
}
