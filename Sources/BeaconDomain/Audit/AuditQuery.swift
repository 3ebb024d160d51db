/// Which audit records `beaconctl audit` asks for: every filter given must match.
package struct AuditQuery: Sendable, Equatable {
    package var sessionID: String?
    package var adBreakID: String?
    package var adID: String?
    package var event: TrackingEventType?
    /// Records at or after this wall-clock time.
    package var since: Milliseconds?
    package var outcome: AuditOutcome?
    /// At most this many, the newest (still printed oldest first).
    package var limit: Int?

    package init(
        sessionID: String? = nil, adBreakID: String? = nil, adID: String? = nil, event: TrackingEventType? = nil, since: Milliseconds? = nil,
        outcome: AuditOutcome? = nil, limit: Int? = nil
    ) {
        self.sessionID = sessionID
        self.adBreakID = adBreakID
        self.adID = adID
        self.event = event
        self.since = since
        self.outcome = outcome
        self.limit = limit
    }

    package func matches(_ record: AuditRecord) -> Bool {
        let subject = record.subject
        return (sessionID == nil || subject.sessionID == sessionID) && (adBreakID == nil || subject.adBreakID == adBreakID)
            && (adID == nil || subject.adID == adID) && (event == nil || subject.event == event)
            && (since.map { record.at >= $0 } ?? true) && (outcome == nil || record.outcome == outcome)
    }

    /// The records of `entries` (oldest first) that match, the newest `limit` of them.
    package func select(_ entries: some Sequence<AuditEntry>) -> [AuditEntry] {
        let matching = entries.filter { matches($0.record) }
        guard let limit, matching.count > limit else { return matching }
        return Array(matching.suffix(max(limit, 0)))
    }
}

/// The query as the `audit` control line carries it.
extension AuditQuery: Codable {
    enum CodingKeys: String, CodingKey {
        case sessionID = "sessionId", adBreakID = "adBreakId", adID = "adId", event, since, outcome, limit
    }
}
