import BeaconDomain
/// What to tell the service manager, and when. Pure: the notifier's loop feeds it the daemon's
/// answers and the time, and sends what it returns.
///
/// `READY=1` goes with the first answer (the control socket listens before the loop starts);
/// `STATUS=` only when the text changed; `WATCHDOG=1` once `petInterval` passed since the last one,
/// and only in answer to a probe, so a daemon that stops answering stops the petting.
package struct NotifyPolicy: Sendable {
    /// How often `WATCHDOG=1` is due; nil without a watchdog.
    package let petInterval: Duration?
    private var ready = false
    private var stopping = false
    private var lastStatus: String?
    private var lastPet: Duration?

    /// STATUS changes show within this, even when the watchdog is slower or absent.
    static let statusPeriod: Duration = .seconds(1)

    package init(petInterval: Duration?) {
        self.petInterval = petInterval
    }

    /// How long the loop waits between two probes of the daemon.
    package var probePeriod: Duration {
        min(petInterval ?? Self.statusPeriod, Self.statusPeriod)
    }

    /// The daemon answered a probe with `report` at `now` (time since the loop began): the
    /// message to send, or nil when there is nothing new to say.
    package mutating func answered(_ report: StatusReport, at now: Duration) -> String? {
        var assignments: [String] = []
        if !ready {
            ready = true
            assignments.append("READY=1")
        }
        // While draining, the session is already gone: the report would read `idle`.
        if !stopping {
            let status = ServiceStatus.describe(report)
            if status != lastStatus {
                lastStatus = status
                assignments.append("STATUS=\(status)")
            }
        }
        if let petInterval, lastPet.map({ now - $0 >= petInterval }) ?? true {
            lastPet = now
            assignments.append("WATCHDOG=1")
        }
        return assignments.isEmpty ? nil : assignments.joined(separator: "\n")
    }

    /// The drain began with `inFlight` tracking events still being delivered.
    package mutating func drainStarted(inFlight: Int) -> String {
        stopping = true
        let status = "stopping, \(inFlight) tracking events in flight"
        lastStatus = status
        return "STOPPING=1\nSTATUS=\(status)"
    }
}
