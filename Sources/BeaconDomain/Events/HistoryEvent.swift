/// What the event history keeps of one notification, before it is numbered and timed: one of the
/// daemon's own kinds, or an application's own entry (`notify <code> <text>`).
package struct HistoryEvent: Sendable, Equatable {
    /// The longest detail value kept, in characters: reasons from the network can be long.
    package static let maxDetailLength = 300
    package var code: Int
    package var name: String
    package var severity: EventSeverity
    package var details: [String: String]

    package init(_ kind: EventKind, _ details: [String: String] = [:]) {
        self.init(code: kind.code, name: kind.name, severity: kind.severity, details: details)
    }

    private init(code: Int, name: String, severity: EventSeverity, details: [String: String]) {
        self.code = code
        self.name = name
        self.severity = severity
        self.details = details.mapValues { value in
            value.count > Self.maxDetailLength ? String(value.prefix(Self.maxDetailLength)) + "…" : value
        }
    }

    /// The daemon's kind of this entry; nil for an application's own.
    package var kind: EventKind? { EventKind(rawValue: code) }

    /// An application's own entry: `code` reads `T99NNN`, its first digit the severity.
    package static func application(_ notice: ApplicationNotice) -> HistoryEvent {
        let severity = EventSeverity.allCases.first { $0.band == notice.band } ?? .info
        return HistoryEvent(code: notice.code, name: "applicationNotice", severity: severity, details: ["text": notice.text])
    }
}
