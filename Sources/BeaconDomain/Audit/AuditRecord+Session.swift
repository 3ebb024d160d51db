/// The records of a session's life and of the events it never fired.
extension AuditRecord {
    /// A session started, ended, or its init failed (`reason` says why).
    package static func session(_ kind: Kind, _ subject: AuditSubject, parts: [String], reason: String? = nil, at wallNow: Milliseconds) -> AuditRecord {
        var record = AuditRecord(id: AuditRecordID.of(kind, parts), kind: kind, at: wallNow, subject: subject)
        record.reason = reason
        return record
    }

    /// A tracking event of `session` that can no longer fire. Its id names the event, not the
    /// instant: a session resumed and ended again tells the same story once.
    package static func notFired(_ event: UnfiredEvent, in session: ActiveSession, at wallNow: Milliseconds) -> AuditRecord {
        var subject = session.auditSubject
        subject.adBreakID = event.reference.adBreakID
        subject.adID = event.adID
        subject.creativeID = event.creativeID
        subject.event = event.event
        subject.window = event.window
        let parts = [
            session.endpoints.sessionKey, event.reference.adBreakID, event.adID, event.event.rawValue, String(event.window.lowerBound),
        ]
        var record = AuditRecord(id: AuditRecordID.of(.notFired, parts), kind: .notFired, at: wallNow, subject: subject)
        record.notFired = event.reason
        record.played = event.played
        return record
    }
}
