/// Beacon delivery through the daemon's events: fired tracking events become journal writes and
/// requests, requests that ended become results, and only what the journal acknowledged is
/// reported; the timer, the journal's restore and reopening, and the drain.
extension DaemonCore {
    /// Turns fired tracking events into deliveries, one per signaling URL, and starts what may start.
    mutating func dispatch(_ firings: [Firing], now: Milliseconds, wallNow occurredAt: Milliseconds) {
        guard !firings.isEmpty, let session else { return }
        for firing in firings {
            log(.beacon, .debug, "firing pod=\(firing.adBreakID) ad=\(firing.adID) event=\(firing.event) urls=\(firing.signalingURLs.count)")
            notify(.beaconsDue(firing))
        }
        // Every firing of this call occurred now: what [TIMESTAMP] says, on every request of it.
        let effects = deliveries.fire(
            firings, sessionKey: session.endpoints.sessionKey, macros: configuration.macros,
            context: { session.macroContext(of: $0, occurredAt: occurredAt) },
            now: now, wallNow: occurredAt, using: &random)
        write(effects, now: now, wallNow: occurredAt, due: auditDue(firings, wallNow: occurredAt))
        actions.append(.wakeDeliveryTimer)
    }

    /// What became of requests, in one batch: one journal commit for all, with what starts next.
    package mutating func requestsEnded(
        _ batch: [(key: BeaconDelivery.Key, result: RequestResult)], now: Milliseconds, wallNow: Milliseconds
    ) -> DaemonStep<Void> {
        step { core in
            guard !batch.isEmpty else { return }
            let effects = core.deliveries.record(batch, now: now, wallNow: wallNow, using: &core.random)
            core.write(effects, now: now, wallNow: wallNow)
            // Only a delivery due again can bring the timer's next wake nearer.
            if effects.ended.contains(where: { $0.delivery.state == .due }) { core.actions.append(.wakeDeliveryTimer) }
        }
    }

    /// The journal acknowledged these decisions, in the order they were taken: the reporting states
    /// of finished firings go to the session, then the log and the outputs hear of them.
    package mutating func journalWrote(_ batch: [DeliveryEffects]) -> DaemonStep<Void> {
        step { core in
            for effects in batch { core.tell(written: effects) }
            core.finishDrainIfIdle()
        }
    }

    /// The delivery timer woke (or starts): what is due starts; answers when the next retry is due.
    /// The wake comes with the decision, at its instant: asked at a later one, a retry falling due
    /// in between would wait forever.
    package mutating func timePassed(now: Milliseconds, wallNow: Milliseconds) -> DaemonStep<Milliseconds?> {
        step { core in
            let effects = core.deliveries.timePassed(now: now)
            core.write(effects, now: now, wallNow: wallNow)
            return effects.nextWake
        }
    }

    /// The journal opened with these unfinished deliveries: they resume.
    package mutating func journalRestored(_ restored: [BeaconDelivery], now: Milliseconds, wallNow: Milliseconds) -> DaemonStep<Void> {
        step { core in
            if !restored.isEmpty {
                core.log(.journal, .notice, "resuming \(restored.count) beacon deliveries from the journal")
            }
            core.write(core.deliveries.restore(restored, now: now), now: now, wallNow: wallNow)
        }
    }

    /// The journal opened again after a failure: everything known is written to it.
    package mutating func journalReopened(now: Milliseconds) -> DaemonStep<Void> {
        step { core in
            let snapshot = core.session.map { $0.tracking.snapshot(endpoints: $0.endpoints, savedAt: now) }
            core.session?.snapshotDirty = false
            core.actions.append(.rewriteJournal(Array(core.deliveries.queue.deliveries.values), session: snapshot))
        }
    }

    /// Shutting down: the session ends for good; what is due now still leaves within the drain
    /// timeout, what waits for a retry stays due.
    package mutating func beginDrain(now: Milliseconds, wallNow: Milliseconds) -> DaemonStep<Void> {
        step { core in
            guard !core.isDraining else { return }
            let queue = core.deliveries.queue
            core.log(.drain, .info, "draining: \(queue.inFlightCount) beacon requests in flight, \(queue.dueCount) due stay in the journal")
            core.notify(.drainStarted(inFlight: queue.inFlightCount))
            core.endSession(draining: true, now: now, wallNow: wallNow)
            core.write(core.deliveries.beginDrain(now: now), now: now, wallNow: wallNow)
            core.finishDrainIfIdle()
        }
    }

    /// The drain timeout passed: nothing starts any more; requests still in flight stay due.
    package mutating func drainTimedOut() -> DaemonStep<Void> {
        step { core in
            core.deliveries.drainTimedOut()
            let inFlight = core.deliveries.queue.inFlightCount
            core.log(.drain, .warning, "drain timeout: cancelling \(inFlight) beacon requests still in flight; they stay due in the journal")
            core.notify(.drainTimedOut(inFlight: inFlight))
        }
    }

    /// Counted now, with the deliveries; then written with their audit records (`due`, then the
    /// requests that ended), started and, once acknowledged, reported.
    private mutating func write(_ effects: DeliveryEffects, now: Milliseconds, wallNow: Milliseconds, due: [AuditRecord] = []) {
        counters.add(effects.counters)
        actions.append(.write(effects, audit: due + auditEnded(effects, now: now, wallNow: wallNow)))
    }

    /// Ends the delivery loop once draining leaves no request in flight.
    private mutating func finishDrainIfIdle() {
        guard isDraining, deliveries.isDrained else { return }
        actions.append(.finishDeliveries)
    }

    /// What the coordinator decided, once the journal wrote it: the requests starting, the
    /// requests ended, the firings whose every delivery finished.
    private mutating func tell(written effects: DeliveryEffects) {
        for finished in effects.finished where session?.endpoints.sessionKey == finished.sessionKey {
            session?.tracking.record(finished.state, for: finished.firing.reference)
        }
        let quiet = configuration.quiet
        for delivery in effects.start {
            let (key, resend) = (delivery.key, delivery.resend ? " resend=true" : "")
            log(
                .beacon, .debug,
                "BEACON requesting pod=\(key.adBreakID) ad=\(key.adID) event=\(key.event) url=\(key.url) attempt=\(delivery.attempts) quiet=\(quiet)\(resend)")
        }
        for ended in effects.ended {
            actions.append(.log(.beacon, LogLine(ended.line.isWarning ? .warning : .info, ended.line.text)))
            if ended.retrying { notify(.beaconRetrying(ended.delivery)) }
        }
        for finished in effects.finished {
            notify(.beaconsDelivered(finished.firing, results: finished.results, state: finished.state))
        }
    }
}
