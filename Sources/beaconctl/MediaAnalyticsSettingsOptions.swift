import ArgumentParser
import BeaconRuntime

/// The flags of the `[media-analytics]` table; like every setting flag, text until `Settings` validates it.
struct MediaAnalyticsSettingsOptions: ParsableArguments {
    @Option(name: .customLong("media-analytics-endpoint"), help: settingHelp("Media Collection API base URL: enables the media-analytics reporter (default: off).", .mediaAnalyticsEndpoint, valueName: "url"))
    var mediaAnalyticsEndpoint: String?

    @Option(name: .customLong("media-analytics-tracking-server"), help: settingHelp("Adobe Analytics tracking server (analytics.trackingServer).", .mediaAnalyticsTrackingServer, valueName: "host"))
    var mediaAnalyticsTrackingServer: String?

    @Option(name: .customLong("media-analytics-report-suite"), help: settingHelp("Adobe Analytics report suite id (analytics.reportSuite).", .mediaAnalyticsReportSuite, valueName: "id"))
    var mediaAnalyticsReportSuite: String?

    @Option(name: .customLong("media-analytics-org-id"), help: settingHelp("Adobe Experience Cloud organisation id (visitor.marketingCloudOrgId).", .mediaAnalyticsOrgID, valueName: "id"))
    var mediaAnalyticsOrgID: String?

    @Option(name: .customLong("media-analytics-user-id"), help: settingHelp("The viewer's user id, when known (default: none).", .mediaAnalyticsUserID, valueName: "id"))
    var mediaAnalyticsUserID: String?

    @Option(name: .customLong("media-analytics-channel"), help: settingHelp("Distribution channel (media.channel).", .mediaAnalyticsChannel, valueName: "name"))
    var mediaAnalyticsChannel: String?

    @Option(name: .customLong("media-analytics-player-name"), help: settingHelp("Player name (media.playerName, default beaconctl).", .mediaAnalyticsPlayerName, valueName: "name"))
    var mediaAnalyticsPlayerName: String?

    @Flag(name: .customLong("media-analytics-ssl"), inversion: .prefixedNo, help: settingHelp("Analytics over SSL (analytics.enableSSL, default true).", .mediaAnalyticsSSL))
    var mediaAnalyticsSSL: Bool?

    @Option(name: .customLong("media-analytics-ping-interval"), help: settingHelp("Seconds between pings during main content (default 10, at most 600).", .mediaAnalyticsPingInterval, valueName: "seconds"))
    var mediaAnalyticsPingInterval: String?

    @Option(name: .customLong("media-analytics-ad-ping-interval"), help: settingHelp("Seconds between pings inside an ad (default 1, at most 600).", .mediaAnalyticsAdPingInterval, valueName: "seconds"))
    var mediaAnalyticsAdPingInterval: String?

    @Option(name: .customLong("media-analytics-publisher"), help: settingHelp("Publisher (media.publisher, default: none).", .mediaAnalyticsPublisher, valueName: "name"))
    var mediaAnalyticsPublisher: String?

    @Option(name: .customLong("media-analytics-job-id"), help: settingHelp("Adobe's job id, sent as custom metadata jobId (default: none).", .mediaAnalyticsJobID, valueName: "id"))
    var mediaAnalyticsJobID: String?

    @Option(name: .customLong("media-analytics-ovp"), help: settingHelp("Online video provider, sent as custom metadata ovp (default: none).", .mediaAnalyticsOVP, valueName: "name"))
    var mediaAnalyticsOVP: String?

    @Option(name: .customLong("media-analytics-sdk"), help: settingHelp("The player's SDK version (media.sdkVersion, default: beaconctl's version).", .mediaAnalyticsSDK, valueName: "version"))
    var mediaAnalyticsSDK: String?

    @Flag(name: .customLong("media-analytics-quiet"), inversion: .prefixedNo, help: settingHelp("Decide, send nothing: this reporter alone (default false).", .mediaAnalyticsQuiet))
    var mediaAnalyticsQuiet: Bool?

    @Flag(name: .customLong("media-analytics-debug-logging"), inversion: .prefixedNo, help: settingHelp("Log every request of this reporter at info (default false).", .mediaAnalyticsDebugLogging))
    var mediaAnalyticsDebugLogging: Bool?

    @Option(name: .customLong("media-analytics-privacy-default"), help: settingHelp("The viewer's consent before any privacy line: optin, optout or unknown (default optin).", .mediaAnalyticsPrivacyDefault, valueName: "status"))
    var mediaAnalyticsPrivacyDefault: String?

    @Flag(name: .customLong("media-analytics-offline-enabled"), inversion: .prefixedNo, help: settingHelp("Keep unsent events in the state directory across restarts (default true).", .mediaAnalyticsOfflineEnabled))
    var mediaAnalyticsOfflineEnabled: Bool?

    func add(to layer: inout SettingsLayer) {
        let texts: [(SettingKey, String?)] = [
            (.mediaAnalyticsEndpoint, mediaAnalyticsEndpoint), (.mediaAnalyticsTrackingServer, mediaAnalyticsTrackingServer),
            (.mediaAnalyticsReportSuite, mediaAnalyticsReportSuite), (.mediaAnalyticsOrgID, mediaAnalyticsOrgID),
            (.mediaAnalyticsUserID, mediaAnalyticsUserID), (.mediaAnalyticsChannel, mediaAnalyticsChannel),
            (.mediaAnalyticsPlayerName, mediaAnalyticsPlayerName), (.mediaAnalyticsPingInterval, mediaAnalyticsPingInterval),
            (.mediaAnalyticsAdPingInterval, mediaAnalyticsAdPingInterval), (.mediaAnalyticsPublisher, mediaAnalyticsPublisher),
            (.mediaAnalyticsJobID, mediaAnalyticsJobID), (.mediaAnalyticsOVP, mediaAnalyticsOVP), (.mediaAnalyticsSDK, mediaAnalyticsSDK),
            (.mediaAnalyticsPrivacyDefault, mediaAnalyticsPrivacyDefault),
        ]
        for case (let key, let text?) in texts { layer.values[key] = .text(text) }
        let flags: [(SettingKey, Bool?)] = [
            (.mediaAnalyticsSSL, mediaAnalyticsSSL), (.mediaAnalyticsQuiet, mediaAnalyticsQuiet),
            (.mediaAnalyticsDebugLogging, mediaAnalyticsDebugLogging), (.mediaAnalyticsOfflineEnabled, mediaAnalyticsOfflineEnabled),
        ]
        for case (let key, let flag?) in flags { layer.values[key] = .boolean(flag) }
    }
}
