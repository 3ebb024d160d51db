import BeaconDomain
import Logging

/// Runs the delivery loops beside the daemon: the requests (the pump), the retry timer, the
/// requests' results and the journal's acknowledgements. The daemon owns the coordinator and
/// decides: the runner waits, then asks it at each step, so a firing's deliveries are written
/// before their requests start and reported only after their write.
struct DeliveryRunner: Sendable {
    let daemon: BeaconDaemon
    let pump: DeliveryPump
    /// Effects whose write the journal acknowledged, to report.
    let written: Handover<DeliveryEffects>
    /// What the timer sleeps on: the clock of `time`'s instants.
    let clock: any Clock<Duration>
    let time: TimeSource

    /// Until cancelled; the pump ends once the daemon finishes it.
    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await pump.run() }
            group.addTask { await keepTime() }
            group.addTask { await recordResults() }
            group.addTask { await reportWritten() }
        }
    }

    /// Sleeps until the next retry or journal reopen is due, or until woken by new work, then starts what is due.
    private func keepTime() async {
        while !Task.isCancelled {
            let next = await daemon.nextWake()
            await pump.timer.wait(for: next.map { .milliseconds(max($0 - time.now(), 0)) }, clock: clock)
            guard !Task.isCancelled else { return }
            await daemon.timePassed()
        }
    }

    private func recordResults() async {
        while !Task.isCancelled {
            await daemon.record(await pump.results.next())
        }
    }

    private func reportWritten() async {
        while !Task.isCancelled {
            await daemon.reportWritten(await written.next())
        }
    }

    /// Whether `drained` ends within `timeout` on `clock`: false when the timeout came first.
    static func ends(_ drained: AsyncStream<Void>, within timeout: Duration, clock: any Clock<Duration>) async -> Bool {
        await withTaskGroup(of: Bool.self) { race in
            race.addTask {
                for await _ in drained {}
                return true
            }
            race.addTask {
                try? await clock.sleep(for: timeout)
                return false
            }
            let first = await race.next() ?? true
            race.cancelAll()
            return first
        }
    }

    static func reportDrainStarted(_ queue: DeliveryQueue, logger: Logger, notify: (DaemonNotification) -> Void) {
        logger.info("draining: \(queue.inFlightCount) beacon requests in flight, \(queue.dueCount) due stay in the journal")
        notify(.drainStarted(inFlight: queue.inFlightCount))
    }

    static func reportDrainTimedOut(inFlight: Int, logger: Logger, notify: (DaemonNotification) -> Void) {
        logger.warning("drain timeout: cancelling \(inFlight) beacon requests still in flight; they stay due in the journal")
        notify(.drainTimedOut(inFlight: inFlight))
    }

    /// Logs and tells the outputs that tracking events fired, before their deliveries are decided.
    static func reportFired(_ firings: [Firing], logger: Logger, notify: (DaemonNotification) -> Void) {
        for firing in firings {
            logger.debug("firing pod=\(firing.adBreakID) ad=\(firing.adID) event=\(firing.event) urls=\(firing.signalingURLs.count)")
            notify(.beaconsDue(firing))
        }
    }

    /// Logs and tells the outputs what the coordinator decided, once the journal wrote it: the
    /// requests starting, the requests ended, the firings whose every delivery finished.
    static func report(_ effects: DeliveryEffects, quiet: Bool, logger: Logger, notify: (DaemonNotification) -> Void) {
        for delivery in effects.start {
            logger.debug(
                "BEACON requesting pod=\(delivery.key.adBreakID) ad=\(delivery.key.adID) event=\(delivery.key.event) url=\(delivery.key.url) attempt=\(delivery.attempts) quiet=\(quiet)")
        }
        for ended in effects.ended {
            logger.log(level: ended.line.isWarning ? .warning : .info, "\(ended.line.text)")
            if ended.retrying { notify(.beaconRetrying(ended.delivery)) }
        }
        for finished in effects.finished {
            notify(.beaconsDelivered(finished.firing, results: finished.results, state: finished.state))
        }
    }
}
