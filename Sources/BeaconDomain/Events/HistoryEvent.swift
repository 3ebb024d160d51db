/// What the event history keeps of one notification, before it is numbered and timed.
package struct HistoryEvent: Sendable, Equatable {
    /// The longest detail value kept, in characters: reasons from the network can be long.
    package static let maxDetailLength = 300

    package var kind: EventKind
    package var details: [String: String]

    package init(_ kind: EventKind, _ details: [String: String] = [:]) {
        self.kind = kind
        self.details = details.mapValues { value in
            value.count > Self.maxDetailLength ? String(value.prefix(Self.maxDetailLength)) + "…" : value
        }
    }
}
