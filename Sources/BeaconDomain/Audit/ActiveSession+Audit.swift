/// What the session being played tells the audit about itself and its tracking events.
extension ActiveSession {
    /// The session as the audit names it: its id, or its media URL without the query (which may
    /// carry tokens) when the stream carries none.
    package var auditSessionID: String { AuditSubject.shownSessionKey(endpoints.sessionKey) }

    /// The session alone: its start, end, or a failed init.
    package var auditSubject: AuditSubject {
        AuditSubject(sessionID: auditSessionID, dialect: endpoints.dialect, timeline: tracking.timeline)
    }

    /// A tracking event of the session's schedule, with its ad's creative and its window; what the
    /// key alone says when the schedule no longer holds it.
    package func auditSubject(of key: BeaconDelivery.Key, at reference: EventReference) -> AuditSubject {
        guard key.sessionKey == endpoints.sessionKey else { return AuditSubject(delivery: key) }
        var subject = auditSubject
        subject.adBreakID = key.adBreakID
        subject.adID = key.adID
        subject.event = key.event
        subject.window = key.eventStart...(key.eventStart + TrackingEvent.minimumWindow)
        if let ad = tracking.schedule.ad(containing: reference), ad.id == key.adID {
            subject.creativeID = ad.creativeID
            if let event = tracking.schedule[reference], event.event == key.event { subject.window = event.window }
        }
        return subject
    }

    /// The stretches played over a window: what made its event due.
    package func played(over window: ClosedRange<Milliseconds>) -> [ClosedRange<Milliseconds>] {
        tracking.played.ranges.filter { $0.overlaps(window) }
    }
}
