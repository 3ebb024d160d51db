import BeaconDomain
import Logging

/// Carries out what the daemon's core decided, in order: log lines, notifications, the session's
/// announcement, journal writes (whose acknowledgement starts the requests), the delivery timer,
/// and the wake-ups of whoever waits on the session. Used on the daemon's actor only.
struct DaemonExecutor {
    private let logger: Logger
    private(set) var logs: DaemonLogs
    /// Logs refused lines, a few per client each second.
    let refusedLines: RefusedLineLog
    /// Where every output hears what the daemon did.
    let notifications: DaemonNotificationHub
    let announce: @Sendable (String) -> Void
    /// Deliveries and sessions on disk, written off the actor.
    let journal: JournalWriter
    let audit: AuditLog
    /// The delivery loops: requests, their results, the timer and the journal's acknowledgements.
    let delivery: DeliveryRunner

    init(
        logger: Logger, logs: DaemonLogs, refusedLines: RefusedLineLog, notifications: DaemonNotificationHub,
        announce: @escaping @Sendable (String) -> Void, journal: JournalWriter, audit: AuditLog, delivery: DeliveryRunner
    ) {
        self.logger = logger
        self.logs = logs
        self.refusedLines = refusedLines
        self.notifications = notifications
        self.announce = announce
        self.journal = journal
        self.audit = audit
        self.delivery = delivery
    }

    /// Carries out one event's actions; `waiters` are woken by the session's transitions.
    mutating func carryOut(_ actions: [DaemonAction], waiters: inout SessionWaiters) {
        for action in actions {
            switch action {
            case .log(let topic, let line):
                logs[topic].log(line)
            case .logRefusedLine(let reason, let line, let client):
                refusedLines.refused(reason, line: line, from: client)
            case .notify(let notification):
                notifications.publish(notification)
            case .announce(let line):
                announce(line)
            case .wake(let effect, let isSettled):
                waiters.wake(for: effect, isSettled: isSettled)
            case .write(let effects, let records):
                delivery.carryOut(effects, audit: records)
            case .audit(let records):
                audit.record(records)
            case .saveSnapshot(let snapshot):
                journal.submit([], session: snapshot) { _ in }
            case .rewriteJournal(let deliveries, let snapshot):
                journal.submit(deliveries, session: snapshot) { [logger = logs.journal] result in
                    guard case .success? = result else { return }
                    logger.notice("journal writable again: wrote \(deliveries.count) beacon deliveries")
                }
            case .pruneJournal(let cutoff):
                journal.prune(before: cutoff)
            case .wakeDeliveryTimer:
                delivery.pump.timer.signal()
            case .finishDeliveries:
                delivery.finish()
            case .reconfigure(let runtime):
                delivery.pump.setQuiet(runtime.quiet)
                logs = DaemonLogs(logger, debugTracking: runtime.debugTracking)
            }
        }
    }
}
