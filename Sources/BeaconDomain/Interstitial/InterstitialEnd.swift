/// `interstitial-end`: the interstitial event is over, and why.
package struct InterstitialEnd: Sendable, Equatable {
    package enum Reason: String, Sendable, Equatable, CaseIterable, Codable {
        /// Its assets played to their end.
        case completed
        /// The viewer (or the player's rules) skipped the rest.
        case skipped
        /// An asset could not be played.
        case error
    }

    /// The event's id.
    package var id: String
    package var reason: Reason

    package init(id: String, reason: Reason) {
        self.id = id
        self.reason = reason
    }
}
