/// The events on their way to the Media Collection API, in order, one request at a time.
///
/// Nothing of a session goes to `/events` before its `sessionStart` was answered `201` with a
/// `Location` (the session id). Network errors, 429 and 5xx keep the request at the head and try
/// it again after a ``Backoff`` wait, with its original `ts`. The queue is bounded: over capacity
/// it drops the oldest pings first, then other events, never a session, ad break, ad or chapter
/// bound. A 404 or 410 to an event says the session is gone: its remaining events are dropped and
/// the caller opens a new one.
package struct MediaCollectionOutbox: Sendable {
    /// What to do next.
    package enum Step: Sendable, Equatable {
        case send(MediaCollectionRequest)
        /// The head waits for its retry.
        case wait(until: Milliseconds)
        /// Nothing to send, or a request is in flight.
        case idle
    }

    /// What an answer came to.
    package enum Outcome: Sendable, Equatable {
        case delivered(MediaCollectionEventType, status: Int)
        case sessionOpened(session: Int, sessionID: String)
        /// The request is tried again at `at`.
        case retrying(MediaCollectionEventType, reason: String, at: Milliseconds)
        /// A `sessionStart` refused for good: that session's events are dropped.
        case sessionRefused(session: Int, reason: String, dropped: Int)
        /// 404 or 410: the session is gone, its remaining events dropped.
        case sessionGone(session: Int, status: Int, dropped: Int)
        /// An event refused for good (another 4xx), dropped.
        case refused(MediaCollectionEventType, status: Int)
    }

    package static let defaultCapacity = 1000

    package let capacity: Int
    package let backoff: Backoff
    package private(set) var queue: [MediaCollectionEmission] = [] {
        didSet { revision &+= 1 }
    }
    /// Changes with every change of the queue: what the backlog is compared with only when it moved.
    package private(set) var revision = 0
    package private(set) var isInFlight = false
    /// When the head may be tried again, after a failure.
    package private(set) var retryAt: Milliseconds?
    package private(set) var failuresInARow = 0
    package private(set) var sent = 0
    package private(set) var failed = 0
    package private(set) var retried = 0
    package private(set) var dropped = 0
    /// Session ids by the tracker's session number.
    private var sessionIDs: [Int: String] = [:]
    /// Sessions refused or gone: what they still make is dropped.
    private var closed: Set<Int> = []
    /// The `sessionStart` of each session with events queued, and of the newest: what a session
    /// closed by the back end during a restart is resumed with.
    private var starts: [Int: MediaCollectionEvent] = [:]

    package init(capacity: Int = defaultCapacity, backoff: Backoff = Backoff(base: 1000, cap: 30_000)) {
        self.capacity = max(capacity, 1)
        self.backoff = backoff
    }

    package var isEmpty: Bool { queue.isEmpty }

    package func sessionID(of session: Int) -> String? { sessionIDs[session] }

    package mutating func enqueue(_ emissions: [MediaCollectionEmission]) {
        for emission in emissions {
            guard !closed.contains(emission.session) else {
                dropped += 1
                continue
            }
            if emission.event.type == .sessionStart {
                let queued = Set(queue.map(\.session))
                starts = starts.filter { queued.contains($0.key) }
                starts[emission.session] = emission.event
            }
            dropped += queue.append(emission, capacity: capacity, sparing: isInFlight ? 1 : 0)
        }
    }

    /// Takes what a run before this one kept (``backlog``), at `wallNow`, ahead of anything new.
    package mutating func restore(_ backlog: MediaCollectionBacklog, wallNow: Milliseconds) {
        let restored = backlog.restored(wallNow: wallNow)
        sessionIDs.merge(restored.sessionIDs) { _, kept in kept }
        enqueue(restored.emissions)
        for session in backlog.sessions.indices { starts[-(session + 1)] = backlog.sessions[session].start }
    }

    /// What a restart would have to send: the queued events but pings, by session in queue order.
    package var backlog: MediaCollectionBacklog {
        var sessions: [MediaCollectionBacklog.Session] = []
        for emission in queue where !emission.event.type.isPing {
            if sessions.last?.number == emission.session {
                sessions[sessions.count - 1].events.append(emission.event)
            } else if let index = sessions.firstIndex(where: { $0.number == emission.session }) {
                sessions[index].events.append(emission.event)
            } else if let start = starts[emission.session] {
                sessions.append(.init(number: emission.session, sessionID: sessionIDs[emission.session], start: start, events: [emission.event]))
            }
        }
        return MediaCollectionBacklog(sessions: sessions)
    }

    /// The next request, or why there is none; a request returned is in flight until ``record(_:now:wallNow:using:)``.
    package mutating func next(now: Milliseconds) -> Step {
        guard !isInFlight, let head = queue.first else { return .idle }
        if let retryAt, now < retryAt { return .wait(until: retryAt) }
        let sessionID = sessionIDs[head.session]
        // A session's events follow its sessionStart in the queue: an event whose session has no
        // id yet can only be one whose sessionStart was refused and already dropped.
        guard head.event.type == .sessionStart || sessionID != nil else {
            queue.removeFirst()
            dropped += 1
            return next(now: now)
        }
        isInFlight = true
        return .send(MediaCollectionRequest(emission: head, sessionID: head.event.type == .sessionStart ? nil : sessionID))
    }

    /// What became of the request in flight; nil when none was.
    package mutating func record(
        _ result: Result<HTTPClientResponse, HTTPClientError>, now: Milliseconds, wallNow: Milliseconds,
        using random: inout some RandomNumberGenerator
    ) -> Outcome? {
        guard isInFlight, let head = queue.first else { return nil }
        isInFlight = false
        let type = head.event.type
        switch result {
        case .failure(let error):
            return retry(type, reason: error.description, requestedWait: nil, now: now, using: &random)
        case .success(let response) where HTTPStatus.mayPassLater(response.status):
            return retry(
                type, reason: "HTTP \(response.status)", requestedWait: response.requestedWait(wallNow: wallNow), now: now,
                using: &random)
        case .success(let response):
            retryAt = nil
            failuresInARow = 0
            queue.removeFirst()
            if type == .sessionStart {
                guard response.isSuccess, let sessionID = MediaCollectionRequest.sessionID(fromLocation: response.location) else {
                    failed += 1
                    let reason = response.isSuccess ? "HTTP \(response.status) without a session id in Location" : "HTTP \(response.status)"
                    return .sessionRefused(session: head.session, reason: reason, dropped: close(head.session))
                }
                sent += 1
                sessionIDs[head.session] = sessionID
                return .sessionOpened(session: head.session, sessionID: sessionID)
            }
            if response.isSuccess {
                sent += 1
                return .delivered(type, status: response.status)
            }
            failed += 1
            if response.status == 404 || response.status == 410 {
                return .sessionGone(session: head.session, status: response.status, dropped: close(head.session))
            }
            return .refused(type, status: response.status)
        }
    }

    private mutating func retry(
        _ type: MediaCollectionEventType, reason: String, requestedWait: Milliseconds?, now: Milliseconds,
        using random: inout some RandomNumberGenerator
    ) -> Outcome {
        failuresInARow += 1
        retried += 1
        let wait = max(backoff.delay(forRetry: failuresInARow, using: &random), min(requestedWait ?? 0, backoff.cap))
        let at = now + max(wait, 1)
        retryAt = at
        return .retrying(type, reason: reason, at: at)
    }

    /// Drops what is queued of `session` and whatever it makes later; returns how many were dropped.
    private mutating func close(_ session: Int) -> Int {
        closed.insert(session)
        sessionIDs[session] = nil
        let before = queue.count
        queue.removeAll { $0.session == session }
        let count = before - queue.count
        dropped += count
        return count
    }
}
