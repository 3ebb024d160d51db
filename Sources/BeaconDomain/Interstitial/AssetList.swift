/// An interstitial's asset list as the player received it (the `X-ASSET-LIST` response: `ASSETS`,
/// each with `URI` and `DURATION`), with the `TRACKING` section MediaTailor adds for an SGAI
/// session in client-side reporting: the same schema as its tracking API, its times as written.
package struct AssetList: Sendable, Equatable {
    package struct Asset: Sendable, Equatable {
        package var uri: String?
        /// ms; nil when the list gives none (or none usable).
        package var duration: Milliseconds?

        package init(uri: String? = nil, duration: Milliseconds? = nil) {
            self.uri = uri
            self.duration = duration
        }
    }

    package var assets: [Asset]
    /// The ad breaks of its `TRACKING` section, on its own times; nil when it has none.
    package var tracking: MetadataDocument?
    /// Why a `TRACKING` section that was there could not be read; nil when read or absent.
    package var trackingProblem: String?

    package init(assets: [Asset], tracking: MetadataDocument? = nil, trackingProblem: String? = nil) {
        self.assets = assets
        self.tracking = tracking
        self.trackingProblem = trackingProblem
    }
}
