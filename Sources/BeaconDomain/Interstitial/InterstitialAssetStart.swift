/// `interstitial-asset`: an asset of an interstitial event starts playing.
package struct InterstitialAssetStart: Sendable, Equatable {
    /// The event's id.
    package var id: String
    /// The asset's place in play order, from 0.
    package var index: Int
    package var uri: String?
    /// Its duration as the player announces it, ms; nil: the asset list's `DURATION`.
    package var duration: Milliseconds?

    package init(id: String, index: Int, uri: String? = nil, duration: Milliseconds? = nil) {
        self.id = id
        self.index = index
        self.uri = uri
        self.duration = duration
    }
}
