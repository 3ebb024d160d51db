import BeaconDomain
import Logging

extension Settings {
    /// A setting as it would be written in the config file (`2`, `"https://…"`, `true`), or nil when unset.
    package func tomlValue(of key: SettingKey) -> String? {
        switch key {
        case .mediaURL: mediaURL.map(Self.quoted)
        case .trackingURL: trackingURL.map(Self.quoted)
        case .socket: Self.quoted(socket)
        case .metadataInterval: Self.number(metadataInterval)
        case .retention: Self.number(retention)
        case .drainTimeout: Self.number(drainTimeout)
        case .stateDir: Self.quoted(stateDir)
        case .beaconMaxAge: Self.number(beaconMaxAge)
        case .httpTimeout: Self.number(httpTimeout)
        case .quiet: "\(quiet)"
        case .debugTracking: "\(debugTracking)"
        case .logLevel: Self.quoted(logLevel.rawValue)
        case .metricsAddress: metricsAddress.map { Self.quoted($0.description) }
        case .ifa: ifa.isEmpty ? nil : Self.quoted(ifa)
        case .ifaType: ifaType.isEmpty ? nil : Self.quoted(ifaType)
        case .limitAdTracking: "\(limitAdTracking)"
        case .dialect: Self.quoted(dialect?.rawValue ?? "auto")
        case .isInitRequest: "\(isInitRequest)"
        case .sgai: "\(sgai)"
        case .instance: Self.quoted(instance)
        case .auditMaxAge: Self.number(auditMaxAge)
        case .auditMaxSize: "\(auditMaxSize)"
        case .mediaAnalyticsEndpoint, .mediaAnalyticsTrackingServer, .mediaAnalyticsReportSuite, .mediaAnalyticsOrgID,
            .mediaAnalyticsUserID, .mediaAnalyticsChannel, .mediaAnalyticsPlayerName, .mediaAnalyticsSSL,
            .mediaAnalyticsPingInterval, .mediaAnalyticsAdPingInterval, .mediaAnalyticsPublisher, .mediaAnalyticsJobID,
            .mediaAnalyticsOVP, .mediaAnalyticsSDK, .mediaAnalyticsQuiet, .mediaAnalyticsDebugLogging, .mediaAnalyticsPrivacyDefault,
            .mediaAnalyticsOfflineEnabled:
            mediaAnalytics.tomlValue(of: key)
        case .heartbeatEndpoint, .heartbeatConcurrencyEndpoint, .heartbeatSyncInterval, .heartbeatMaxAllowedFailures,
            .heartbeatRecordBookmark, .heartbeatMultiStreamMode, .heartbeatPlaybackStopOnPlaybackEnd,
            .heartbeatPostSlateDuration, .heartbeatTrackViewersCount, .heartbeatDeviceID, .heartbeatHeaders:
            heartbeat.tomlValue(of: key)
        case .telemetryEndpoint, .telemetryHeaders, .telemetryExportInterval, .telemetryLogInterval, .telemetryBatchSize,
            .telemetryResourceAttributes, .telemetryCompression:
            telemetry.tomlValue(of: key)
        }
    }

    /// One setting as `config check` prints it: its TOML value, with each header's value masked
    /// (a header may carry an API key).
    func shownValue(of key: SettingKey) -> String? {
        let headers = switch key {
        case .heartbeatHeaders: heartbeat.headers
        case .telemetryHeaders: telemetry.headers
        default: [String: String]?.none
        }
        guard let headers else { return tomlValue(of: key) }
        return headers.isEmpty ? nil : Self.inlineTable(ExtraHeaders.masked(headers))
    }

    /// Whole numbers without a fraction; others in Swift's shortest round-tripping form, which TOML reads.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// A TOML basic string.
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
