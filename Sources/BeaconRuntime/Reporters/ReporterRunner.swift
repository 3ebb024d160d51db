import BeaconDomain
import Logging
import Synchronization

/// Runs one reporter: the same for every one, whatever its core decides and its edge carries out.
///
/// - The hub's notifications the core takes wait in one queue, stamped with the time they came;
///   at most ``Reporter/maxWaiting`` of them, what comes on top is dropped and counted (`dropped`).
///   Switches and the timer's wakes always get through.
/// - One task takes them in order and carries out what the core decides, one effect at a time,
///   each answer going back to the core before anything else is taken.
/// - A timer task sleeps on the time source until the core's next wake and queues a wake-up, so
///   the core sees one ordered stream.
/// - Once the daemon finished, the core ends (``ReporterCore/end(now:wallNow:)``) and what is left
///   must be done by the drain deadline, counted from the finish: an effect still under way then
///   is cancelled and the reporter stops.
package actor ReporterRunner<Edge: ReporterEdge>: Reporter {
    private enum Item: Sendable {
        case input(Edge.Core.Input, now: Milliseconds, wallNow: Milliseconds)
        case enabled(Bool, now: Milliseconds, wallNow: Milliseconds)
        case due
    }

    package nonisolated let name: ReporterName
    private nonisolated let time: TimeSource
    private nonisolated let items: AsyncStream<Item>
    private nonisolated let continuation: AsyncStream<Item>.Continuation
    /// Inputs queued and not yet taken, held to ``Reporter/maxWaiting``.
    private nonisolated let waiting = Atomic<Int>(0)
    private nonisolated let dropped = Atomic<Int>(0)
    /// When the daemon finished: the drain deadline counts from then.
    private nonisolated let finishedAt = Mutex<Milliseconds?>(nil)
    /// Signalled after each item is taken, and at the finish: the core's next wake may have moved.
    private nonisolated let alarm = Wakeup()
    /// Signalled at the finish, for an effect under way: the drain deadline now bounds it.
    private nonisolated let finished = Wakeup()
    /// The switch, for a reader that cannot wait for the actor (the daemon, as requests leave).
    private nonisolated let switchedOn = Atomic<Bool>(true)

    private var core: Edge.Core
    private let edge: Edge
    private let publish: @Sendable (DaemonNotification) -> Void
    private let logger: Logger
    private let drainTimeout: Milliseconds
    private var random: any RandomNumberGenerator & Sendable
    private var enabled = true
    private var quiet: Bool
    private var lastRequest: String?
    private var lastRequestAt: Milliseconds?
    private var lastAnswer: String?
    private var counters: [String: Int] = [:]

    /// - Parameters:
    ///   - drainTimeout: how long what is left may take once the daemon finished.
    ///   - quiet: decide everything, send nothing, like the ad beacons.
    ///   - publish: tells the hub what the player was told.
    package init(
        core: Edge.Core, edge: Edge, time: TimeSource, random: any RandomNumberGenerator & Sendable, logger: Logger, drainTimeout: Duration,
        quiet: Bool, publish: @escaping @Sendable (DaemonNotification) -> Void
    ) {
        self.core = core
        self.edge = edge
        name = edge.name
        self.time = time
        self.random = random
        self.logger = logger
        self.drainTimeout = drainTimeout.milliseconds
        self.quiet = quiet
        self.publish = publish
        (items, continuation) = AsyncStream.makeStream()
    }

    // MARK: DaemonNotificationSubscriber

    package nonisolated func receive(_ notification: DaemonNotification) {
        guard let input = Edge.Core.input(from: notification) else { return }
        guard waiting.add(1, ordering: .relaxed).newValue <= Self.maxWaiting else {
            waiting.subtract(1, ordering: .relaxed)
            dropped.add(1, ordering: .relaxed)
            return
        }
        continuation.yield(.input(input, now: time.now(), wallNow: time.wallNow()))
    }

    package nonisolated func finish() {
        let now = time.now()
        finishedAt.withLock { $0 = $0 ?? now }
        continuation.finish()
        alarm.signal()
        finished.signal()
    }

    // MARK: Reporter

    package func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.wakeAtEachDue() }
            await takeUntilSettled()
            group.cancelAll()
        }
    }

    /// Whether the reporter is enabled, read without waiting for it.
    package nonisolated var isEnabled: Bool { switchedOn.load(ordering: .relaxed) }

    package func setEnabled(_ enabled: Bool) {
        guard enabled != self.enabled else { return }
        self.enabled = enabled
        switchedOn.store(enabled, ordering: .relaxed)
        continuation.yield(.enabled(enabled, now: time.now(), wallNow: time.wallNow()))
    }

    package func setQuiet(_ quiet: Bool) {
        self.quiet = quiet
    }

    package func status() -> ReporterStatus {
        var status = edge.status(of: core, enabled: enabled, quiet: quiet, draining: drainDeadline != nil, wallOffset: time.wallOffset())
        if let lastRequest {
            status.lastRequest = lastRequest
            status.lastRequestAt = lastRequestAt
        }
        if let lastAnswer { status.lastAnswer = lastAnswer }
        status.counters.merge(counters, uniquingKeysWith: +)
        let dropped = dropped.load(ordering: .relaxed)
        if dropped > 0 { status.counters["dropped", default: 0] += dropped }
        return status
    }

    // MARK: The reporter's tasks

    private var drainDeadline: Milliseconds? {
        finishedAt.withLock { $0 }.map { $0 + drainTimeout }
    }

    /// Takes every item in order; once the daemon finished, ends the core and goes on until it is
    /// settled or the drain deadline passed.
    private func takeUntilSettled() async {
        for await item in items {
            let actions: [ReporterAction<Edge.Core.Effect>]
            switch item {
            case .input(let input, let now, let wallNow):
                waiting.subtract(1, ordering: .relaxed)
                actions = core.take(input, now: now, wallNow: wallNow)
            case .enabled(let enabled, let now, let wallNow):
                actions = core.setEnabled(enabled, now: now, wallNow: wallNow)
            case .due:
                actions = []
            }
            guard await carryOut(actions) else { return }
            // What fell due meanwhile, once the answers to the item's effects are in.
            if let wake = core.nextWake, wake <= time.now() {
                guard await carryOut(core.wake(now: time.now(), wallNow: time.wallNow())) else { return }
            }
            alarm.signal()
        }
        guard await carryOut(core.end(now: time.now(), wallNow: time.wallNow())), let deadline = drainDeadline else { return }
        while !core.isSettled {
            let now = time.now()
            guard now < deadline else { break }
            if let wake = core.nextWake, wake <= now {
                guard await carryOut(core.wake(now: now, wallNow: time.wallNow())) else { return }
            } else {
                try? await time.sleep(until: min(core.nextWake ?? deadline, deadline))
            }
        }
        if !core.isSettled { logger.warning("\(name.rawValue) drain timed out with work left") }
    }

    /// Queues a wake-up each time the core's next wake comes, until cancelled.
    private func wakeAtEachDue() async {
        while !Task.isCancelled {
            let wake = core.nextWake
            await alarm.wait(until: wake, on: time)
            guard let wake, time.now() >= wake, !Task.isCancelled else { continue }
            continuation.yield(.due)
            // Until the wake-up is taken: the next wake is read after it.
            await alarm.wait()
        }
    }

    /// Carries out `actions` in order, an effect's answer going back to the core, whose actions
    /// come next. False when the drain deadline passed first.
    private func carryOut(_ actions: [ReporterAction<Edge.Core.Effect>]) async -> Bool {
        var pending = Array(actions.reversed())
        while let action = pending.popLast() {
            switch action {
            case .perform(let effect):
                guard let performed = await perform(effect) else {
                    logger.warning("\(name.rawValue) drain timed out: what was under way is cancelled")
                    return false
                }
                show(performed)
                guard let answer = performed.answer else { continue }
                pending += core.record(answer, of: effect, now: time.now(), wallNow: time.wallNow(), using: &random).reversed()
            case .publish(let notification):
                publish(notification)
            case .log(let line):
                logger.log(line)
            }
        }
        return true
    }

    /// The edge's work, bounded by the drain deadline, also when the daemon finishes while it is
    /// under way; nil when the deadline passed first.
    private func perform(_ effect: Edge.Core.Effect) async -> Performed<Edge.Core.Answer>? {
        let (edge, quiet) = (edge, quiet)
        if let deadline = drainDeadline, time.now() >= deadline { return nil }
        return await withDeadline({ await self.drainDeadlineOnceFinished() }, on: time) { await edge.perform(effect, quiet: quiet) }
    }

    /// The drain deadline, once the daemon finished; never, for a race already over (cancelled).
    private nonisolated func drainDeadlineOnceFinished() async -> Milliseconds {
        while !Task.isCancelled {
            if let finishedAt = finishedAt.withLock({ $0 }) { return finishedAt + drainTimeout }
            await finished.wait()
        }
        return .max
    }

    private func show(_ performed: Performed<Edge.Core.Answer>) {
        if let request = performed.request {
            lastRequest = request
            lastRequestAt = performed.requestedAt
        }
        if let result = performed.result { lastAnswer = result }
        if let counter = performed.counter { counters[counter, default: 0] += 1 }
    }
}
