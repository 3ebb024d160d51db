/// The `[media-analytics]` settings: where Adobe's Media Collection API is and what every session
/// reports of the box. The reporter is configured when `endpoint` is set.
public struct MediaAnalyticsSettings: Sendable, Equatable {
    /// The Media Collection API's base URL (`{endpoint}/api/v1/sessions`).
    public var endpoint: String?
    public var trackingServer: String = ""
    public var reportSuite: String = ""
    public var orgID: String = ""
    public var userID: String?
    public var channel: String = ""
    public var playerName: String = "beaconctl"
    /// `analytics.enableSSL`.
    public var ssl = true
    /// Between pings during main content.
    public var pingInterval: Duration = .seconds(10)
    /// Between pings inside an ad.
    public var adPingInterval: Duration = .seconds(1)

    public init() {}

    public var isConfigured: Bool { endpoint != nil }
}
