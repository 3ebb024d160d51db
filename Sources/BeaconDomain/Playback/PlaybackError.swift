/// An error the player reported: `error player <id> [message]` or `error application <id> [message]`.
package struct PlaybackError: Sendable, Equatable {
    package enum Source: String, Sendable, Equatable, CaseIterable {
        /// The player failed: the session is in the error state until the next `load`.
        case player
        /// The application around the player failed; playback may go on.
        case application
    }

    package var source: Source
    package var id: String
    package var message: String?

    package init(source: Source, id: String, message: String? = nil) {
        self.source = source
        self.id = id
        self.message = message
    }
}
