import BeaconDomain

/// Carries out the delivery coordinator's effects and runs the delivery loops beside the daemon:
/// the requests (the pump), the retry timer, the requests' results and the journal's
/// acknowledgements. The daemon owns the coordinator and decides: the runner waits, then asks it
/// at each step, so a firing's deliveries are written before their requests start and reported
/// only after their write.
struct DeliveryRunner: Sendable {
    /// Requests, their results and the retry timer.
    let pump: DeliveryPump
    let journal: JournalWriter
    /// Keeps the audit records the journal did not write.
    let audit: AuditLog
    /// Effects whose write the journal acknowledged, to report.
    let written = Handover<DeliveryEffects>()
    let time: TimeSource
    private let drained: AsyncStream<Void>
    private let drainedInput: AsyncStream<Void>.Continuation

    init(pump: DeliveryPump, journal: JournalWriter, audit: AuditLog, time: TimeSource) {
        self.pump = pump
        self.journal = journal
        self.audit = audit
        self.time = time
        (drained, drainedInput) = AsyncStream.makeStream()
    }

    /// Writes what the coordinator decided, with its audit records, to the journal, whose
    /// acknowledgement starts the requests (on the journal's thread, without the actor) and hands
    /// the effects over to be reported: nothing says done or failed before the journal does, and
    /// nothing waits for the disk.
    func carryOut(_ effects: DeliveryEffects, audit records: [AuditRecord]) {
        journal.submit(effects.persist, audit: records) { [pump, written, audit] result in
            audit.keep(records, unless: result)
            pump.start(effects.start)
            written.add(effects)
        }
    }

    /// Until cancelled; the pump ends once the daemon finishes it.
    func run(for daemon: BeaconDaemon) async {
        await withDiscardingTaskGroup { group in
            group.addTask { await pump.run() }
            group.addTask { await keepTime(for: daemon) }
            group.addTask { await recordResults(for: daemon) }
            group.addTask { await handBackWritten(for: daemon) }
        }
    }

    /// Starts what is due, then sleeps until the next retry or journal reopen is due, or until
    /// woken by new work.
    private func keepTime(for daemon: BeaconDaemon) async {
        while !Task.isCancelled {
            let next = await daemon.timePassed()
            await pump.timer.wait(until: next, on: time)
        }
    }

    private func recordResults(for daemon: BeaconDaemon) async {
        while !Task.isCancelled {
            let ended = await pump.results.next()
            await daemon.step { core, now, wallNow in core.requestsEnded(ended, now: now, wallNow: wallNow) }
        }
    }

    private func handBackWritten(for daemon: BeaconDaemon) async {
        while !Task.isCancelled {
            let batch = await written.next()
            await daemon.step { core, _, _ in core.journalWrote(batch) }
        }
    }

    /// The drain left no request in flight: no request starts any more, and the pump ends once
    /// those under way have.
    func finish() {
        pump.finish()
        drainedInput.finish()
    }

    /// Whether ``finish()`` comes within `timeout`: false when the timeout came first.
    func drains(within timeout: Duration) async -> Bool {
        await withDeadline(time.now() + timeout.milliseconds, on: time) { [drained] in
            for await _ in drained {}
            return true
        } ?? false
    }
}
