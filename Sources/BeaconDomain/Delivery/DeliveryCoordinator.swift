/// Every beacon delivery from the firing of a tracking event to its reporting state, decided
/// without I/O: each input takes the time (`now`, a monotonic instant; `wallNow` where a time is
/// shown or a date read) and the random generator, and returns the ``DeliveryEffects`` to carry out.
///
/// The rules it keeps: a delivery is on disk, in flight, before its request leaves (`persist`
/// holds it when `start` does); a repeatable event is a new delivery each time it fires, even twice
/// in one millisecond; a delivery due longer than the max age is given up; the deliveries of one
/// firing end in one reporting state once all of them finished; draining starts what is due and
/// lets requests finish, and once the drain timed out nothing starts.
package struct DeliveryCoordinator: Sendable {
    package typealias Key = BeaconDelivery.Key

    /// How far the daemon's drain went.
    package enum Drain: Sendable, Equatable {
        case none
        /// What is due still starts; finishing the last request in flight ends the drain.
        case draining
        /// Nothing starts any more: what is due stays due, for the next run.
        case timedOut
    }

    /// Why a delivery is given up without a request once it has been due longer than the max age.
    package static let maxAgeReason = "beacon max age passed before it could be sent"
    /// Finished deliveries are forgotten past retention at most this often.
    package static let pruneInterval: Milliseconds = 5 * 60_000

    /// Every delivery: due, in flight, and finished ones until pruned.
    package private(set) var queue: DeliveryQueue
    package private(set) var retryPolicy: RetryPolicy
    package private(set) var drain = Drain.none
    /// The occurrence of the last repeatable firing, so two in the same millisecond stay two
    /// deliveries. On the wall clock: it names the firing in the journal, across boots, and
    /// schedules nothing.
    private var lastOccurrence: Milliseconds = 0
    /// The last result of each finished delivery whose firing has deliveries still unfinished.
    private var lastResults: [Key: RequestResult] = [:]
    private var lastPruneAt: Milliseconds?

    package init(queue: DeliveryQueue, retryPolicy: RetryPolicy) {
        self.queue = queue
        self.retryPolicy = retryPolicy
    }

    /// Whether the drain left no request in flight.
    package var isDrained: Bool { drain != .none && queue.inFlightCount == 0 }

    /// A settings reload: from the next look at the due deliveries on, this max age counts.
    package mutating func setMaxAge(_ maxAge: Milliseconds) {
        retryPolicy.maxAge = maxAge
    }

    /// Fired tracking events of the session whose journal key is `sessionKey`: one delivery per
    /// signaling URL, its macros expanded once (with `context(firing)`) so every request of it is
    /// the same. A firing without signaling URLs is done at once.
    package mutating func fire(
        _ firings: [Firing], sessionKey: String, macros: MacroSettings, context: (Firing) -> MacroContext, now: Milliseconds,
        wallNow: Milliseconds, using random: inout some RandomNumberGenerator
    ) -> DeliveryEffects {
        var effects = DeliveryEffects()
        var added: [BeaconDelivery] = []
        let count = firings.reduce(0) { $0 + $1.signalingURLs.count }
        queue.reserveCapacity(forAdding: count)
        added.reserveCapacity(count)
        for firing in firings {
            guard !firing.signalingURLs.isEmpty else {
                effects.finished.append(.init(sessionKey: sessionKey, firing: firing, results: [], state: .done))
                continue
            }
            // An event that fires once is one delivery per URL for good; a repeatable one is a new one each time.
            var occurrence: Milliseconds = 0
            if !firing.event.firesOnce {
                lastOccurrence = max(wallNow, lastOccurrence + 1)
                occurrence = lastOccurrence
            }
            let macroContext = context(firing)
            for url in firing.signalingURLs {
                let key = Key(
                    sessionKey: sessionKey, adBreakID: firing.adBreakID, adID: firing.adID, event: firing.event, eventStart: firing.eventStart,
                    url: url, occurrence: occurrence)
                guard queue.deliveries[key] == nil else { continue }
                let sentURL = MacroExpansion.expand(url, context: macroContext, settings: macros, using: &random)
                let delivery = BeaconDelivery(key: key, sentURL: sentURL, reference: firing.reference, dueAt: now)
                if queue.add(delivery) { added.append(delivery) }
            }
        }
        finished(startDue(now: now, changed: added, into: &effects), into: &effects)
        return effects
    }

    /// What became of requests, in one batch: one write for all of them and what starts next.
    /// A cancelled request leaves its delivery due, as a possible re-send.
    package mutating func record(
        _ results: [(key: Key, result: RequestResult)], now: Milliseconds, wallNow: Milliseconds,
        using random: inout some RandomNumberGenerator
    ) -> DeliveryEffects {
        var effects = DeliveryEffects()
        var updates: [(delivery: BeaconDelivery, result: RequestResult)] = []
        // The requests that were re-sends: their lines say so, though the delivery no longer is one.
        var resent: Set<Key> = []
        for (key, result) in results {
            if queue.deliveries[key]?.resend == true { resent.insert(key) }
            let updated: BeaconDelivery?
            if case .failed(.cancelled) = result.outcome {
                updated = queue.interrupt(key, now: now)
            } else if let current = queue.deliveries[key] {
                let verdict = retryPolicy.verdict(on: result, of: current, now: now, wallNow: wallNow, using: &random)
                updated = queue.finish(key, verdict: verdict, result: result, now: now)
            } else {
                updated = nil
            }
            if let updated { updates.append((updated, result)) }
        }
        let expired = startDue(now: now, changed: updates.map(\.delivery), into: &effects)
        for (delivery, result) in updates {
            effects.ended.append(
                .init(
                    delivery: delivery, result: result, retrying: delivery.state == .due && drain == .none, resend: resent.contains(delivery.key),
                    line: BeaconLogLine(result, of: delivery, resend: resent.contains(delivery.key), now: now)))
        }
        finished(expired + updates, into: &effects)
        return effects
    }

    /// Time passed (the retry timer, a journal reopen): gives up what is too old, starts what is due.
    package mutating func timePassed(now: Milliseconds) -> DeliveryEffects {
        var effects = DeliveryEffects()
        finished(startDue(now: now, changed: [], into: &effects), into: &effects)
        return effects
    }

    /// Unfinished deliveries read back from the journal: one in flight when the daemon stopped is
    /// due again, as a possible re-send.
    package mutating func restore(_ deliveries: [BeaconDelivery], now: Milliseconds) -> DeliveryEffects {
        for delivery in deliveries { queue.add(delivery) }
        return timePassed(now: now)
    }

    /// The drain begins: what is due now still starts, requests in flight finish.
    package mutating func beginDrain(now: Milliseconds) -> DeliveryEffects {
        if drain == .none { drain = .draining }
        return timePassed(now: now)
    }

    /// The drain timeout passed: nothing starts any more.
    package mutating func drainTimedOut() {
        drain = .timedOut
    }

    /// Forgets finished deliveries past `retention`, at most every ``pruneInterval``; returns the
    /// cutoff for the journal to prune by when it is time.
    package mutating func prune(now: Milliseconds, retention: Milliseconds) -> Milliseconds? {
        if let lastPruneAt, now - lastPruneAt < Self.pruneInterval { return nil }
        lastPruneAt = now
        let cutoff = now - retention
        queue.prune(finishedBefore: cutoff)
        return cutoff
    }

    /// The reporting states a session's deliveries leave its events in: those of the journal,
    /// overridden by those in memory, the latest firing of each event deciding.
    package func reportingStates(ofSession sessionKey: String, stored: [BeaconDelivery]) -> [EventReference: ReportingState] {
        var deliveries = Dictionary(stored.map { ($0.key, $0) }) { _, later in later }
        for (key, delivery) in queue.deliveries where key.sessionKey == sessionKey { deliveries[key] = delivery }
        return ReportingState.ofLatestFirings(deliveries.values)
    }

    /// Gives up what passed the max age, then starts every delivery that may start now. What
    /// changed and what starts are written in one go, a delivery that does both once, in flight.
    /// Sets the next wake at the same instant. Returns the deliveries given up, for ``finished(_:into:)``.
    private mutating func startDue(
        now: Milliseconds, changed: [BeaconDelivery], into effects: inout DeliveryEffects
    ) -> [(delivery: BeaconDelivery, result: RequestResult)] {
        var changed = changed
        var givenUp: [(delivery: BeaconDelivery, result: RequestResult)] = []
        for expired in queue.expire(dueBefore: retryPolicy.expiryCutoff(now: now), now: now, reason: Self.maxAgeReason) {
            changed.append(expired)
            let result = RequestResult(url: expired.key.url, outcome: .failed(.timedOut), latencyMilliseconds: 0)
            effects.ended.append(
                .init(delivery: expired, result: result, retrying: false, attempted: false, line: BeaconLogLine(result, of: expired, resend: false, now: now)))
            givenUp.append((expired, result))
        }
        let starting = drain == .timedOut ? [] : queue.start(now: now)
        let startingKeys = changed.isEmpty ? [] : Set(starting.map(\.key))
        effects.persist += changed.filter { !startingKeys.contains($0.key) } + starting
        effects.start += starting
        for delivery in starting {
            if delivery.attempts > 1 { effects.counters.retried += 1 }
            if delivery.resend { effects.counters.resent += 1 }
        }
        effects.nextWake = queue.nextAttempt(after: now)
        return givenUp
    }

    /// Deliveries that ended, all of one batch: counted, and each firing whose last delivery is
    /// among them gets its reporting state, with the last result of every one of its URLs.
    private mutating func finished(_ ended: [(delivery: BeaconDelivery, result: RequestResult)], into effects: inout DeliveryEffects) {
        let finished = ended.filter { $0.delivery.state.isFinished }
        for (delivery, result) in finished {
            switch (delivery.state, result.outcome) {
            case (.failed, _): effects.counters.failed += 1
            case (_, .notSent): break
            default: effects.counters.sent += 1
            }
            lastResults[delivery.key] = result
        }
        var announced: Set<Key> = []
        for (delivery, _) in finished {
            let siblings = queue.deliveries(sharingFiringWith: delivery.key)
            guard siblings.allSatisfy(\.state.isFinished), announced.insert(DeliveryQueue.firingKey(of: delivery.key)).inserted else {
                continue
            }
            let ordered = siblings.sorted { $0.key.url < $1.key.url }
            let results = ordered.compactMap { lastResults.removeValue(forKey: $0.key) }
            let firing = Firing(
                reference: delivery.reference, adBreakID: delivery.key.adBreakID, adID: delivery.key.adID, event: delivery.key.event,
                eventStart: delivery.key.eventStart, signalingURLs: ordered.map(\.key.url))
            effects.finished.append(
                .init(sessionKey: delivery.key.sessionKey, firing: firing, results: results, state: ReportingState(deliveries: siblings)))
        }
    }
}
