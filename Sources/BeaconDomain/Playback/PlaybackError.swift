/// An error the player reported: `error player <id> [message]` or `error application <id> [message]`.
public struct PlaybackError: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable, CaseIterable {
        /// The player failed: the session is in the error state until the next `load`.
        case player
        /// The application around the player failed; playback may go on.
        case application
    }

    public var source: Source
    public var id: String
    public var message: String?

    public init(source: Source, id: String, message: String? = nil) {
        self.source = source
        self.id = id
        self.message = message
    }
}
