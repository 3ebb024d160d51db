/// What an audit record is about: the session, and for a tracking event its ad break, ad and
/// creative, its type and its window on the session's timeline.
package struct AuditSubject: Sendable, Equatable {
    /// The session key: the session's id, or its media URL when the stream carries none.
    package var sessionID: String?
    package var dialect: Dialect?
    package var adBreakID: String?
    package var adID: String?
    package var creativeID: String?
    package var event: TrackingEventType?
    package var timeline: Timeline?
    /// The tracking event's window on the session's timeline.
    package var window: ClosedRange<Milliseconds>?

    package init(
        sessionID: String? = nil, dialect: Dialect? = nil, adBreakID: String? = nil, adID: String? = nil, creativeID: String? = nil,
        event: TrackingEventType? = nil, timeline: Timeline? = nil, window: ClosedRange<Milliseconds>? = nil
    ) {
        self.sessionID = sessionID
        self.dialect = dialect
        self.adBreakID = adBreakID
        self.adID = adID
        self.creativeID = creativeID
        self.event = event
        self.timeline = timeline
        self.window = window
    }

    /// A delivery's subject when its session is no longer the one played: what its key says.
    package init(delivery key: BeaconDelivery.Key) {
        self.init(
            sessionID: Self.shownSessionKey(key.sessionKey), adBreakID: key.adBreakID, adID: key.adID, event: key.event,
            window: key.eventStart...(key.eventStart + TrackingEvent.minimumWindow))
    }

    /// A session key as the audit shows it: a media URL (a stream without session id) loses its
    /// query, which may carry tokens.
    package static func shownSessionKey(_ key: String) -> String {
        key.contains("://") ? String(key.prefix { $0 != "?" && $0 != "#" }) : key
    }
}
