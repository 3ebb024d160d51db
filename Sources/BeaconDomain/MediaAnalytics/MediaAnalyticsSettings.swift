/// The `[media-analytics]` settings: where Adobe's Media Collection API is and what every session
/// reports of the box. The reporter is configured when `endpoint` is set.
package struct MediaAnalyticsSettings: Sendable, Equatable {
    /// The Media Collection API's base URL (`{endpoint}/api/v1/sessions`).
    package var endpoint: String?
    package var trackingServer: String = ""
    package var reportSuite: String = ""
    package var orgID: String = ""
    package var userID: String?
    package var channel: String = ""
    package var playerName: String = "beaconctl"
    /// `analytics.enableSSL`.
    package var ssl = true
    /// Between pings during main content.
    package var pingInterval: Duration = .seconds(10)
    /// Between pings inside an ad.
    package var adPingInterval: Duration = .seconds(1)

    package init() {}

    package var isConfigured: Bool { endpoint != nil }
}
