/// What the player says of an HLS interstitial (or a MediaTailor SGAI ad break): the main player
/// stopped at its date while a second player plays its assets, which the daemon cannot see.
package enum InterstitialCommand: Sendable, Equatable {
    /// `interstitial-start {...}`: an interstitial event begins.
    case start(InterstitialStart)
    /// `interstitial-asset {...}`: an asset of the event starts; itself a tick at the asset's position 0.
    case asset(InterstitialAssetStart)
    /// `{"interstitial": id, "asset": n, "position": s, "at": ms, "rate": x}`: where the interstitial player is.
    case tick(InterstitialTick)
    /// `interstitial-end {...}`.
    case end(InterstitialEnd)
}
