/// What the daemon's core decided, for the runtime to carry out in order: nothing here has
/// happened yet when the core returns it.
package enum DaemonAction: Sendable {
    /// A line of the daemon's log, under its topic.
    case log(DaemonLogTopic, LogLine)
    /// A line the daemon refused (`line` when it was text): logged a few per client each second, counted already.
    case logRefusedLine(reason: String, line: String?, from: InputClient)
    /// Tell every output (the event history, the reporters, `watch`).
    case notify(DaemonNotification)
    /// The session's JSON line, for whoever started the daemon (stdout in `run`).
    case announce(String)
    /// Wake whoever waits on this transition of the supervisor (the session runner, `load`s,
    /// stdin); `isSettled` is the supervisor's once the transition was made.
    case wake(SessionSupervisor.Effect, isSettled: Bool)
    /// Write the coordinator's decision and its audit records to the beacon journal, in one
    /// transaction, then start its requests and hand it back, acknowledged, to ``DaemonCore/journalWrote(_:)``.
    case write(DeliveryEffects, audit: [AuditRecord])
    /// Add these records to the audit with the journal's next commit (in memory without a journal).
    case audit([AuditRecord])
    /// Save the session's snapshot with the journal's next commit.
    case saveSnapshot(SessionSnapshot)
    /// The journal opened again after a failure: write everything known to it.
    case rewriteJournal([BeaconDelivery], session: SessionSnapshot?)
    /// Forget finished deliveries and old sessions last changed before this instant.
    case pruneJournal(before: Milliseconds)
    /// A retry may be due sooner than the delivery timer sleeps: it looks again.
    case wakeDeliveryTimer
    /// The drain left no request in flight: no request starts any more.
    case finishDeliveries
    /// A reload took these settings: the sender's quiet mode and the loggers' levels follow.
    case reconfigure(RuntimeSettings)
}

/// Which of the daemon's loggers a line goes to, so each line says what it is about.
package enum DaemonLogTopic: Sendable, Equatable {
    /// Session init, end and unload.
    case session
    case metadata
    /// Outgoing beacons.
    case beacon
    case input
    case drain
    case journal
}

/// What one event came to: the answer its sender waits for, and the actions to carry out.
package struct DaemonStep<Answer: Sendable>: Sendable {
    package var answer: Answer
    package var actions: [DaemonAction]
}
