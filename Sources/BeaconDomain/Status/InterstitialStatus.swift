/// The interstitial playing, or the last one, as status shows it.
package struct InterstitialStatus: Sendable, Equatable, Codable {
    /// Where its ads' tracking comes from.
    package enum Tracking: String, Sendable, Equatable, Codable {
        /// The metadata describes an ad break at its place.
        case metadata
        /// Its asset list's `TRACKING` section.
        case assetList = "asset-list"
        /// Nothing: none of its ads fires (`trackingReason` says why).
        case none
    }

    package var id: String
    /// Its place on the session's timeline.
    package var place: Milliseconds
    /// The ad break it covers, if any.
    package var adBreakId: String?
    /// The asset playing (or last played), from 0.
    package var asset: Int?
    package var assetUri: String?
    /// The position inside that asset, ms.
    package var position: Milliseconds?
    /// That asset's duration, ms, as announced or listed.
    package var duration: Milliseconds?
    /// The assets told of so far.
    package var assets: Int
    package var tracking: Tracking
    package var trackingReason: String?
    /// Why it ended (`completed`, `skipped`, `error`); nil while it plays.
    package var ended: InterstitialEnd.Reason?
}

extension InterstitialStatus {
    /// `event` as the session knows it.
    package init(_ event: InterstitialState, in session: TrackingSession) {
        let covered = session.coveredAdBreak(of: event)
        let asset = event.current ?? event.assets.lastIndex(where: \.started)
        self.init(
            id: event.id, place: event.place, adBreakId: covered?.id, asset: asset, assetUri: asset.flatMap { event.assets[$0].uri },
            position: event.position, duration: asset.flatMap { event.assets[$0].duration }, assets: event.assets.count,
            tracking: covered == nil ? .none : event.hasAssetListTracking ? .assetList : .metadata,
            trackingReason: covered == nil ? Self.untracked(event) : nil, ended: event.ended)
    }

    private static func untracked(_ event: InterstitialState) -> String {
        if let problem = event.trackingProblem { return "its asset list's TRACKING is not used: \(problem)" }
        return "no metadata describes an ad break at its place and its asset list has no TRACKING section (server-side reporting)"
    }
}
