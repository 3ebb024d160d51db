/// What the event history keeps of one notification, before it is numbered and timed.
public struct HistoryEvent: Sendable, Equatable {
    /// The longest detail value kept, in characters: reasons from the network can be long.
    public static let maxDetailLength = 300

    public var kind: EventKind
    public var details: [String: String]

    public init(_ kind: EventKind, _ details: [String: String] = [:]) {
        self.kind = kind
        self.details = details.mapValues { value in
            value.count > Self.maxDetailLength ? String(value.prefix(Self.maxDetailLength)) + "…" : value
        }
    }
}
