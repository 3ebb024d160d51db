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
    /// `media.publisher`.
    package var publisher: String?
    /// Adobe's heartbeat job id and online video provider: the Media Collection API has no
    /// parameter for either, so each rides in the session's custom metadata (`jobId`, `ovp`).
    package var jobID: String?
    package var ovp: String?
    /// `media.sdkVersion`: the player's SDK as the operator names it; beaconctl's version when unset.
    package var sdk: String?
    /// Decide everything and send nothing for this reporter alone (Adobe's `quietMode`).
    package var quiet = false
    /// Log every request this reporter makes, at info (Adobe's `debugLogging`).
    package var debugLogging = false
    /// The viewer's consent until a `privacy` line or the kept status says otherwise.
    package var privacyDefault: PrivacyStatus = .optIn
    /// Keep the events not yet sent in the state directory, so a restart sends them (Adobe's `offlineEnabled`).
    package var offlineEnabled = true

    package init() {}

    package var isConfigured: Bool { endpoint != nil }
}
