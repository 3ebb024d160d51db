import BeaconDomain

extension MediaAnalyticsSettings {
    /// Takes one `[media-analytics]` key's value, validated.
    mutating func assign(_ value: SettingValue, to key: SettingKey) throws(Settings.Refusal) {
        switch key {
        case .mediaAnalyticsEndpoint: endpoint = try Settings.url(value)
        case .mediaAnalyticsTrackingServer: trackingServer = try Settings.identifier(value, maxBytes: 255)
        case .mediaAnalyticsReportSuite: reportSuite = try Settings.identifier(value, maxBytes: 255)
        case .mediaAnalyticsOrgID: orgID = try Settings.identifier(value, maxBytes: 255)
        case .mediaAnalyticsUserID: userID = try Settings.optionalLabel(value)
        case .mediaAnalyticsChannel: channel = try Settings.label(value)
        case .mediaAnalyticsPlayerName: playerName = try Settings.label(value)
        case .mediaAnalyticsSSL: ssl = try Settings.boolean(value)
        case .mediaAnalyticsPingInterval: pingInterval = .seconds(try Settings.seconds(value, atMost: Settings.maxPingSeconds, "600"))
        case .mediaAnalyticsAdPingInterval: adPingInterval = .seconds(try Settings.seconds(value, atMost: Settings.maxPingSeconds, "600"))
        case .mediaAnalyticsPublisher: publisher = try Settings.optionalLabel(value)
        case .mediaAnalyticsJobID: jobID = try Settings.optionalLabel(value)
        case .mediaAnalyticsOVP: ovp = try Settings.optionalLabel(value)
        case .mediaAnalyticsSDK: sdk = try Settings.optionalLabel(value)
        case .mediaAnalyticsQuiet: quiet = try Settings.boolean(value)
        case .mediaAnalyticsDebugLogging: debugLogging = try Settings.boolean(value)
        case .mediaAnalyticsPrivacyDefault: privacyDefault = try Settings.privacyStatus(value)
        case .mediaAnalyticsOfflineEnabled: offlineEnabled = try Settings.boolean(value)
        default: preconditionFailure("\(key) is not a [media-analytics] key")
        }
    }

    /// One `[media-analytics]` key as the file writes it, or nil when unset.
    func tomlValue(of key: SettingKey) -> String? {
        switch key {
        case .mediaAnalyticsEndpoint: endpoint.map(Settings.quoted)
        case .mediaAnalyticsTrackingServer: trackingServer.isEmpty ? nil : Settings.quoted(trackingServer)
        case .mediaAnalyticsReportSuite: reportSuite.isEmpty ? nil : Settings.quoted(reportSuite)
        case .mediaAnalyticsOrgID: orgID.isEmpty ? nil : Settings.quoted(orgID)
        case .mediaAnalyticsUserID: userID.map(Settings.quoted)
        case .mediaAnalyticsChannel: channel.isEmpty ? nil : Settings.quoted(channel)
        case .mediaAnalyticsPlayerName: Settings.quoted(playerName)
        case .mediaAnalyticsSSL: "\(ssl)"
        case .mediaAnalyticsPingInterval: Settings.number(Settings.seconds(of: pingInterval))
        case .mediaAnalyticsAdPingInterval: Settings.number(Settings.seconds(of: adPingInterval))
        case .mediaAnalyticsPublisher: publisher.map(Settings.quoted)
        case .mediaAnalyticsJobID: jobID.map(Settings.quoted)
        case .mediaAnalyticsOVP: ovp.map(Settings.quoted)
        case .mediaAnalyticsSDK: sdk.map(Settings.quoted)
        case .mediaAnalyticsQuiet: "\(quiet)"
        case .mediaAnalyticsDebugLogging: "\(debugLogging)"
        case .mediaAnalyticsPrivacyDefault: Settings.quoted(privacyDefault.rawValue)
        case .mediaAnalyticsOfflineEnabled: "\(offlineEnabled)"
        default: preconditionFailure("\(key) is not a [media-analytics] key")
        }
    }
}
