/// One interstitial event as the session knows it: its place on the session's timeline, its
/// assets, and what of each played. Each asset is its own ad: it occupies `[its offset, its offset
/// + its duration]` of the event, its offset the sum of the durations announced before it.
package struct InterstitialState: Sendable, Equatable, Codable {
    package struct Asset: Sendable, Equatable, Codable {
        package var uri: String?
        /// As `interstitial-asset` announced it.
        package var announcedDuration: Milliseconds?
        /// As the asset list gave it.
        package var listedDuration: Milliseconds?
        package var started = false
        /// Its ticks reached its duration, or the next asset or a completed end followed it.
        package var playedToEnd = false
        /// What of it played, on the session's timeline, inside its span.
        package var played = PlayedStretches()

        package init(uri: String? = nil, listedDuration: Milliseconds? = nil) {
            self.uri = uri
            self.listedDuration = listedDuration
        }

        package var duration: Milliseconds? { announcedDuration ?? listedDuration }
    }

    /// Where the ad breaks an interstitial plays come from, as status shows it.
    package enum TrackingSource: Sendable, Equatable, Codable {
        /// The metadata describes an ad break at its place.
        case metadata
        /// Its asset list's `TRACKING` section (MediaTailor SGAI in client-side reporting).
        case assetList
        /// Nothing describes it: nothing of it fires.
        case none(reason: String)
    }

    package var id: String
    /// Its date (program date time) or position (media time), on the session's timeline.
    package var place: Milliseconds
    package var resumeOffset: Milliseconds?
    package var assets: [Asset] = []
    /// The asset playing, while the event plays.
    package var current: Int?
    /// The last position inside the current asset.
    package var position: Milliseconds?
    package var ended: InterstitialEnd.Reason?
    /// Its asset list carried a readable `TRACKING` section.
    package var hasAssetListTracking = false
    /// Why its asset list's tracking could not be used; nil when it could or there was none.
    package var trackingProblem: String?

    package init(id: String, place: Milliseconds, resumeOffset: Milliseconds?) {
        self.id = id
        self.place = place
        self.resumeOffset = resumeOffset
    }

    /// Where asset `index` starts in the event: the durations of the assets before it, summed;
    /// nil while one of them has no duration.
    package func offset(of index: Int) -> Milliseconds? {
        var offset: Milliseconds = 0
        for asset in assets.prefix(index) {
            guard let duration = asset.duration else { return nil }
            offset += duration
        }
        return offset
    }

    /// Asset `index` on the session's timeline; open-ended while its duration is unknown.
    package func span(of index: Int) -> ClosedRange<Milliseconds>? {
        guard let offset = offset(of: index) else { return nil }
        let start = place + offset
        return start...(start + (index < assets.count ? assets[index].duration ?? Self.unknownDuration : Self.unknownDuration))
    }

    /// An asset whose duration nobody gave counts as this long: an ad break is not longer.
    static let unknownDuration: Milliseconds = 3_600_000

    /// The assets the event holds at least up to `index`.
    package mutating func grow(to index: Int) {
        while assets.count <= index { assets.append(Asset()) }
    }

    /// The end of the whole event on the timeline, as far as its assets' durations are known.
    package var knownEnd: Milliseconds {
        place + assets.reduce(0) { $0 + ($1.duration ?? 0) }
    }
}
