/// One signaling URL of one fired tracking event: the unit that is journaled, retried and reported.
public struct BeaconDelivery: Sendable, Equatable, Codable {
    /// What identifies a delivery across restarts.
    public struct Key: Hashable, Sendable, Codable {
        /// The session key: the session's `sessid`, or its media URL when the stream carries none.
        package var sessionKey: String
        public var adBreakID: String
        package var adID: String
        package var event: TrackingEventType
        /// The tracking event's start time (program time).
        package var eventStart: Milliseconds
        /// The signaling URL as the metadata gives it (macros unexpanded): what identifies it.
        package var url: String
        /// 0 for an event that fires once; the firing time for one that fires on every
        /// player or user action (pause, mute...), so each of those is its own delivery.
        package var occurrence: Milliseconds

        // The wire names, as documents and earlier releases spell them.
        enum CodingKeys: String, CodingKey { case sessionKey = "sessionID", adBreakID = "podID", adID, event, eventStart, url, occurrence }

        public init(
            sessionKey: String, adBreakID: String, adID: String, event: TrackingEventType, eventStart: Milliseconds, url: String,
            occurrence: Milliseconds
        ) {
            self.sessionKey = sessionKey
            self.adBreakID = adBreakID
            self.adID = adID
            self.event = event
            self.eventStart = eventStart
            self.url = url
            self.occurrence = occurrence
        }
    }

    /// Where a delivery stands.
    public enum State: String, Sendable, Equatable, Codable, CaseIterable {
        /// Waiting for its first request or for its next retry.
        case due
        /// A request is on the wire.
        case inFlight
        /// The server answered 2xx (or the daemon is quiet).
        case delivered
        /// Given up: a status that is not retried, a refused URL, or older than the beacon max age.
        case failed

        package var isFinished: Bool { self == .delivered || self == .failed }
    }

    package var key: Key
    /// The URL its requests go to: the signaling URL with its macros expanded once, when the
    /// delivery was made, so that a retry or a resend after a restart is the same request.
    package var sentURL: String
    /// Where the tracking event sits in the session's schedule.
    package var reference: EventReference
    package var state: State
    /// Requests started so far.
    package var attempts: Int
    /// The HTTP status of the last answer, if there was one.
    package var lastStatus: Int?
    /// Why the last attempt did not deliver, or why the delivery was given up.
    package var lastError: String?
    /// When the tracking event became due (an instant of the monotonic clock, as every time here):
    /// retries give up `beacon-max-age` after it.
    package var dueAt: Milliseconds
    /// The earliest time of the next request.
    package var nextAttemptAt: Milliseconds
    /// When the state last changed; retention counts from here.
    package var updatedAt: Milliseconds
    /// Whether a request was on the wire when the daemon stopped: the next one may repeat a
    /// request the server already received (the one duplicate that cannot be ruled out).
    package var resend: Bool

    public init(
        key: Key, sentURL: String? = nil, reference: EventReference, state: State = .due, attempts: Int = 0, lastStatus: Int? = nil,
        lastError: String? = nil, dueAt: Milliseconds, nextAttemptAt: Milliseconds? = nil, updatedAt: Milliseconds? = nil,
        resend: Bool = false
    ) {
        self.key = key
        self.sentURL = sentURL ?? key.url
        self.reference = reference
        self.state = state
        self.attempts = attempts
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.dueAt = dueAt
        self.nextAttemptAt = nextAttemptAt ?? dueAt
        self.updatedAt = updatedAt ?? dueAt
        self.resend = resend
    }
}

extension ReportingState {
    /// The reporting state of a fired tracking event, from the deliveries of its signaling URLs:
    /// connecting while any is due or in flight, done when all were delivered, else failed.
    package init(deliveries: some Collection<BeaconDelivery>) {
        if deliveries.contains(where: { !$0.state.isFinished }) {
            self = .connecting
        } else if deliveries.allSatisfy({ $0.state == .delivered }) {
            self = .done
        } else {
            self = .failed
        }
    }
}
