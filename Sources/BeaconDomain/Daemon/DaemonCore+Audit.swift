/// The audit's records of what the daemon decided: each firing, each request's end, the events
/// that can no longer fire, and the sessions' starts, ends and failed inits. Delivery records ride
/// in the journal write of the same decision; the others with the journal's next commit.
extension DaemonCore {
    /// The records of fired tracking events, as they become due.
    func auditDue(_ firings: [Firing], wallNow: Milliseconds) -> [AuditRecord] {
        guard let session else { return [] }
        let sessionKey = session.endpoints.sessionKey
        return firings.map { firing in
            let key = BeaconDelivery.Key(
                sessionKey: sessionKey, adBreakID: firing.adBreakID, adID: firing.adID, event: firing.event, eventStart: firing.eventStart,
                url: "", occurrence: 0)
            let subject = session.auditSubject(of: key, at: firing.reference)
            return AuditRecord.due(
                firing, sessionKey: sessionKey, subject: subject, played: subject.window.map(session.played(over:)) ?? [], at: wallNow)
        }
    }

    /// The records of requests that ended, and of deliveries given up without one.
    func auditEnded(_ effects: DeliveryEffects, now: Milliseconds, wallNow: Milliseconds) -> [AuditRecord] {
        effects.ended.flatMap { ended in
            let key = ended.delivery.key
            let subject = session?.auditSubject(of: key, at: ended.delivery.reference) ?? AuditSubject(delivery: key)
            return AuditRecord.records(of: ended, subject: subject, now: now, wallNow: wallNow)
        }
    }

    /// The session ends: the events it never fired, and why, then its end.
    mutating func auditSessionEnd(wallNow: Milliseconds) {
        guard let session else { return }
        let unfired = session.tracking.unfired()
        audit(unfired.map { AuditRecord.notFired($0, in: session, at: wallNow) })
        audit([AuditRecord.session(.sessionEnd, session.auditSubject, parts: [session.endpoints.sessionKey, String(wallNow)], at: wallNow)])
    }

    /// Events whose ad break left retention unfired at this metadata refresh.
    mutating func auditRetired(wallNow: Milliseconds) {
        guard let retired = session?.tracking.takeRetired(), !retired.isEmpty, let session else { return }
        audit(retired.map { AuditRecord.notFired($0, in: session, at: wallNow) })
    }

    mutating func audit(_ records: [AuditRecord]) {
        guard !records.isEmpty else { return }
        actions.append(.audit(records))
    }
}
