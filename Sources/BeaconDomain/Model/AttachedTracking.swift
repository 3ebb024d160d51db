/// Tracking of what comes with an ad besides the ad itself: a companion ad's tracking events, an
/// icon's view and click tracking, an ad verification's tracking events. It is kept on its ad and
/// listed in status, never fired from time: the daemon shows no companion, icon or verification
/// script, so these moments never happen (a verification's `verificationNotExecuted`, which the
/// daemon does owe, joins the ad's own tracking events instead).
package struct AttachedTracking: Sendable, Equatable, Codable {
    /// What the tracking belongs to.
    package enum Source: String, Sendable, Equatable, Codable {
        /// `companionAds.companion[].trackingEvents`.
        case companion
        /// `icons[].iconViewTracking` and `icons[].iconClicks.iconClickTracking`.
        case icon
        /// `adVerifications[].trackingEvents`.
        case verification
    }

    package var source: Source
    /// The event as the metadata names it (`clickTracking`, `iconViewTracking`, `iconClickTracking`...).
    package var event: TrackingEventType
    /// When the metadata gives one.
    package var startTime: Milliseconds?
    package var signalingURLs: [String]

    // The wire names, as documents and earlier releases spell them.
    enum CodingKeys: String, CodingKey { case source, event, startTime, signalingURLs = "signalingUrls" }

    package init(source: Source, event: TrackingEventType, startTime: Milliseconds?, signalingURLs: [String]) {
        self.source = source
        self.event = event
        self.startTime = startTime
        self.signalingURLs = signalingURLs
    }

    /// An icon's view tracking: its `iconViewTracking` URLs.
    package static let iconView = TrackingEventType(rawValue: "iconViewTracking")
    /// An icon's click tracking: the URIs of its `iconClicks.iconClickTracking`.
    package static let iconClick = TrackingEventType(rawValue: "iconClickTracking")
}
