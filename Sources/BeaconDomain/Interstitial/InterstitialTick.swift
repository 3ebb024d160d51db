/// The interstitial player's position inside the asset it plays.
package struct InterstitialTick: Sendable, Equatable {
    /// The event's id.
    package var id: String
    /// The asset's index in play order.
    package var asset: Int
    /// Milliseconds from the asset's start.
    package var position: Milliseconds
    /// When the player observed it (wall clock, epoch ms), as a main tick's `at`.
    package var observedAt: Milliseconds?
    package var rate: Double?

    package init(id: String, asset: Int, position: Milliseconds, observedAt: Milliseconds? = nil, rate: Double? = nil) {
        self.id = id
        self.asset = asset
        self.position = position
        self.observedAt = observedAt
        self.rate = rate
    }
}
