/// Every beacon delivery the daemon knows, and which of them may be requested now.
///
/// Pure and clock-free: callers pass the time in. Due deliveries start oldest first, at most
/// `perHostLimit` in flight to one host and `totalLimit` in all, so one slow or failing ad server
/// cannot starve the others and a backlog never leaves as a herd.
///
/// Failures belong to what failed. An HTTP answer, whatever its status, and a request sent that
/// got no answer in time are about their URL alone: that delivery retries on its own backoff (or
/// is given up) and every other one goes on. Only a host that cannot be reached (see
/// ``HostSignal``) looks down: then its own backlog waits and only its oldest due delivery is
/// tried, one request at a time; once a request reaches it again, the others follow oldest first,
/// 2 at once, then twice as many with each answer up to `perHostLimit`. Other hosts go on meanwhile.
package struct DeliveryQueue: Sendable {
    package typealias Key = BeaconDelivery.Key

    package let perHostLimit: Int
    package let totalLimit: Int
    /// Every delivery, finished ones included until pruned.
    package private(set) var deliveries: [Key: BeaconDelivery] = [:]
    /// The keys of each firing's deliveries, by the firing's key (a delivery key without its URL).
    private var firings: [Key: [Key]] = [:]
    /// Due deliveries, ordered by `dueAt`, then by arrival.
    private var waiting: [Waiting] = []
    private var arrivals = 0
    /// How many of `waiting` go to each host: `start` stops scanning once no host can take more.
    private var waitingPerHost: [String: Int] = [:]
    /// Hosts with a waiting delivery that sits out a backoff because the host could not be reached:
    /// only theirs need waking when the host is reached again.
    private var backedOffHosts: Set<String> = []
    private var inFlightPerHost: [String: Int] = [:]
    /// Hosts whose last request could not reach them.
    private var failingHosts: Set<String> = []
    /// The in-flight limit of hosts answering again after failures: it doubles with each answer up
    /// to `perHostLimit`, so a backlog leaves in order and not as a herd.
    private var recoveringLimits: [String: Int] = [:]
    package private(set) var inFlightCount = 0

    /// A due delivery's place in line, with what `start` decides on, so that scanning the line
    /// looks nothing up.
    private struct Waiting: Sendable {
        var key: Key
        var host: String
        var dueAt: Milliseconds
        var nextAttemptAt: Milliseconds
        var arrival: Int
        /// Its backoff waits for the host to be reachable again, not for its URL to do better.
        var waitsForHost: Bool
    }

    package init(perHostLimit: Int = 6, totalLimit: Int = 32) {
        self.perHostLimit = max(perHostLimit, 1)
        self.totalLimit = max(totalLimit, 1)
    }

    /// Due deliveries, waiting to start or to be retried.
    package var dueCount: Int { waiting.count }

    /// Adds a delivery in any state; one already known by its key is left as it is.
    /// An in-flight delivery (restored after a restart) is due again, marked as a possible re-send.
    @discardableResult
    package mutating func add(_ delivery: BeaconDelivery) -> Bool {
        guard deliveries[delivery.key] == nil else { return false }
        var delivery = delivery
        if delivery.state == .inFlight {
            delivery.state = .due
            delivery.resend = true
        }
        deliveries[delivery.key] = delivery
        firings[Self.firingKey(of: delivery.key), default: []].append(delivery.key)
        if delivery.state == .due { enqueue(delivery) }
        return true
    }

    /// Makes room for `count` more deliveries at once: a burst of them is then added without
    /// rehashing every key known so far each time the tables grow (which grow geometrically from
    /// there, so reserving one at a time costs nothing).
    package mutating func reserveCapacity(forAdding count: Int) {
        deliveries.reserveCapacity(deliveries.count + count)
        firings.reserveCapacity(firings.count + count)
    }

    /// Starts the due deliveries that may start at `now`: marks them in flight, counts the attempt
    /// and returns them, oldest first.
    package mutating func start(now: Milliseconds) -> [BeaconDelivery] {
        // Hosts that may take a request now; the scan ends once none is left, so a backlog held
        // back by the limits costs nothing per call.
        var open = Set(waitingPerHost.keys.filter { self.mayStart(to: $0) })
        var started: [BeaconDelivery] = []
        var taken: [Int] = []
        var index = 0
        while index < waiting.count, inFlightCount < totalLimit, !open.isEmpty {
            defer { index += 1 }
            let host = waiting[index].host
            guard open.contains(host) else { continue }
            let ready = waiting[index].nextAttemptAt <= now
            if failingHosts.contains(host) {
                // A failing host is probed by its oldest delivery alone, ready or not; one sitting out
                // the backoff of its own URL's failure says nothing about the host and is passed over.
                if !ready && !waiting[index].waitsForHost { continue }
                open.remove(host)
            }
            guard ready, var running = deliveries[waiting[index].key] else { continue }
            taken.append(index)
            inFlightPerHost[host, default: 0] += 1
            inFlightCount += 1
            if !mayStart(to: host) { open.remove(host) }
            running.state = .inFlight
            running.attempts += 1
            running.updatedAt = now
            deliveries[running.key] = running
            started.append(running)
        }
        removeWaiting(at: taken)
        return started
    }

    /// Whether a request to `host` may start as far as its in-flight limit goes.
    private func mayStart(to host: String) -> Bool {
        let inFlight = inFlightPerHost[host, default: 0]
        if failingHosts.contains(host) { return inFlight == 0 }
        return inFlight < (recoveringLimits[host] ?? perHostLimit)
    }

    /// Records the verdict on an in-flight delivery's request and returns the delivery as it now
    /// stands; nil when the key is not in flight.
    package mutating func finish(
        _ key: Key, verdict: RetryPolicy.Verdict, result: RequestResult, now: Milliseconds
    ) -> BeaconDelivery? {
        guard var delivery = deliveries[key], delivery.state == .inFlight else { return nil }
        let host = release(key)
        if case .answered(let status) = result.outcome { delivery.lastStatus = status }
        delivery.resend = false
        delivery.updatedAt = now
        let signal = HostSignal(result.outcome)
        switch signal {
        case .reached:
            reached(host)
            retryNow(host: host, now: now)
        case .unreachable:
            failingHosts.insert(host)
            recoveringLimits[host] = nil
        case .none:
            break
        }
        switch verdict {
        case .delivered:
            delivery.state = .delivered
            delivery.lastError = nil
        case .retry(let time, let reason):
            delivery.state = .due
            delivery.lastError = reason
            delivery.nextAttemptAt = time
        case .failed(let reason):
            delivery.state = .failed
            delivery.lastError = reason
        }
        deliveries[key] = delivery
        if delivery.state == .due { enqueue(delivery, waitsForHost: signal == .unreachable) }
        return delivery
    }

    /// Puts an in-flight delivery whose request was cancelled back to due: the server may have
    /// received it, so its next request is a possible re-send.
    package mutating func interrupt(_ key: Key, now: Milliseconds) -> BeaconDelivery? {
        guard var delivery = deliveries[key], delivery.state == .inFlight else { return nil }
        release(key)
        delivery.state = .due
        delivery.resend = true
        delivery.lastError = "interrupted"
        delivery.updatedAt = now
        deliveries[key] = delivery
        enqueue(delivery)
        return delivery
    }

    /// Gives up the due deliveries that became due before `cutoff`: they are not requested any more.
    package mutating func expire(dueBefore cutoff: Milliseconds, now: Milliseconds, reason: String) -> [BeaconDelivery] {
        guard let first = waiting.first, first.dueAt < cutoff else { return [] }
        var expired: [BeaconDelivery] = []
        var taken: [Int] = []
        for (index, entry) in waiting.enumerated() where entry.dueAt < cutoff {
            guard var delivery = deliveries[entry.key] else { continue }
            delivery.state = .failed
            delivery.lastError = delivery.lastError.map { "\(reason); last: \($0)" } ?? reason
            delivery.updatedAt = now
            deliveries[entry.key] = delivery
            expired.append(delivery)
            taken.append(index)
        }
        removeWaiting(at: taken)
        return expired
    }

    /// The earliest time after `now` at which a waiting delivery's backoff ends, if any. Deliveries
    /// held back only by the in-flight limits start when a request finishes instead.
    package func nextAttempt(after now: Milliseconds) -> Milliseconds? {
        waiting.lazy.map(\.nextAttemptAt).filter { $0 > now }.min()
    }

    /// The deliveries of one firing of a tracking event: same session, event and occurrence.
    package func deliveries(sharingFiringWith key: Key) -> [BeaconDelivery] {
        (firings[Self.firingKey(of: key)] ?? []).compactMap { deliveries[$0] }
    }

    /// What the deliveries of one firing share: their key without the URL.
    package static func firingKey(of key: Key) -> Key {
        var firing = key
        firing.url = ""
        return firing
    }

    /// Forgets finished deliveries last updated before `cutoff`.
    package mutating func prune(finishedBefore cutoff: Milliseconds) {
        deliveries = deliveries.filter { !$0.value.state.isFinished || $0.value.updatedAt >= cutoff }
        firings = firings.compactMapValues { keys in
            let kept = keys.filter { deliveries[$0] != nil }
            return kept.isEmpty ? nil : kept
        }
    }

    private mutating func enqueue(_ delivery: BeaconDelivery, waitsForHost: Bool = false) {
        arrivals += 1
        let entry = Waiting(
            key: delivery.key, host: URLPolicy.hostKey(of: delivery.key.url), dueAt: delivery.dueAt,
            nextAttemptAt: delivery.nextAttemptAt, arrival: arrivals, waitsForHost: waitsForHost)
        let index = waiting.partitionPoint { $0.dueAt <= entry.dueAt }
        waiting.insert(entry, at: index)
        waitingPerHost[entry.host, default: 0] += 1
        if waitsForHost { backedOffHosts.insert(entry.host) }
    }

    /// Takes the entries at `offsets` (ascending) out of the line, keeping the order of the rest.
    private mutating func removeWaiting(at offsets: [Int]) {
        guard !offsets.isEmpty else { return }
        for offset in offsets {
            let host = waiting[offset].host
            waitingPerHost[host, default: 1] -= 1
            if waitingPerHost[host] == 0 { waitingPerHost[host] = nil }
        }
        // Mostly the oldest ones leave: one move of the rest, no test of each entry.
        if offsets.last == offsets.count - 1 {
            waiting.removeFirst(offsets.count)
        } else {
            let leaving = Set(offsets.map { waiting[$0].arrival })
            waiting.removeAll { leaving.contains($0.arrival) }
        }
    }

    @discardableResult
    private mutating func release(_ key: Key) -> String {
        let host = URLPolicy.hostKey(of: key.url)
        inFlightPerHost[host, default: 1] -= 1
        if inFlightPerHost[host] == 0 { inFlightPerHost[host] = nil }
        inFlightCount -= 1
        return host
    }

    /// A request reached the host: a failing one starts recovering with 2 requests at once, a
    /// recovering one doubles its limit.
    private mutating func reached(_ host: String) {
        let limit = failingHosts.remove(host) != nil ? 2 : (recoveringLimits[host].map { $0 * 2 } ?? perHostLimit)
        recoveringLimits[host] = limit < perHostLimit ? limit : nil
    }

    /// A request reached the host: what waits out a backoff because it could not be reached may go
    /// now. A backoff after the URL's own failure stands.
    private mutating func retryNow(host: String, now: Milliseconds) {
        guard backedOffHosts.remove(host) != nil else { return }
        for index in waiting.indices
        where waiting[index].host == host && waiting[index].waitsForHost && waiting[index].nextAttemptAt > now {
            waiting[index].waitsForHost = false
            waiting[index].nextAttemptAt = now
            deliveries[waiting[index].key]?.nextAttemptAt = now
        }
    }
}
