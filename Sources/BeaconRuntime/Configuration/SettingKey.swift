import BeaconDomain
/// One setting of `beaconctl run`, named as in the config file and the long flag (`metadata-interval`,
/// `--metadata-interval`, `BEACONCTL_METADATA_INTERVAL`). A reporter's settings carry its name
/// (`--media-analytics-endpoint`, `BEACONCTL_MEDIA_ANALYTICS_ENDPOINT`); in the file they may also
/// go without it in the reporter's table (`endpoint` in `[media-analytics]`).
package enum SettingKey: String, CaseIterable, Sendable, Comparable {
    case mediaURL = "media-url"
    case trackingURL = "tracking-url"
    case socket
    case metadataInterval = "metadata-interval"
    case retention
    case drainTimeout = "drain-timeout"
    case stateDir = "state-dir"
    case beaconMaxAge = "beacon-max-age"
    case httpTimeout = "http-timeout"
    case quiet
    case logLevel = "log-level"
    case debugTracking = "debug-tracking"
    case metricsAddress = "metrics-address"
    case ifa
    case ifaType = "ifa-type"
    case limitAdTracking = "limit-ad-tracking"
    case dialect
    case isInitRequest = "is-init-request"
    case sgai
    case instance
    case auditMaxAge = "audit-max-age"
    case auditMaxSize = "audit-max-size"
    case mediaAnalyticsEndpoint = "media-analytics-endpoint"
    case mediaAnalyticsTrackingServer = "media-analytics-tracking-server"
    case mediaAnalyticsReportSuite = "media-analytics-report-suite"
    case mediaAnalyticsOrgID = "media-analytics-org-id"
    case mediaAnalyticsUserID = "media-analytics-user-id"
    case mediaAnalyticsChannel = "media-analytics-channel"
    case mediaAnalyticsPlayerName = "media-analytics-player-name"
    case mediaAnalyticsSSL = "media-analytics-ssl"
    case mediaAnalyticsPingInterval = "media-analytics-ping-interval"
    case mediaAnalyticsAdPingInterval = "media-analytics-ad-ping-interval"
    case mediaAnalyticsPublisher = "media-analytics-publisher"
    case mediaAnalyticsJobID = "media-analytics-job-id"
    case mediaAnalyticsOVP = "media-analytics-ovp"
    case mediaAnalyticsSDK = "media-analytics-sdk"
    case mediaAnalyticsQuiet = "media-analytics-quiet"
    case mediaAnalyticsDebugLogging = "media-analytics-debug-logging"
    case mediaAnalyticsPrivacyDefault = "media-analytics-privacy-default"
    case mediaAnalyticsOfflineEnabled = "media-analytics-offline-enabled"
    case heartbeatEndpoint = "heartbeat-endpoint"
    case heartbeatConcurrencyEndpoint = "heartbeat-concurrency-endpoint"
    case heartbeatSyncInterval = "heartbeat-sync-interval"
    case heartbeatMaxAllowedFailures = "heartbeat-max-allowed-failures"
    case heartbeatRecordBookmark = "heartbeat-record-bookmark"
    case heartbeatMultiStreamMode = "heartbeat-multi-stream-mode"
    case heartbeatPlaybackStopOnPlaybackEnd = "heartbeat-playback-stop-on-playback-end"
    case heartbeatPostSlateDuration = "heartbeat-post-slate-duration"
    case heartbeatTrackViewersCount = "heartbeat-track-viewers-count"
    case heartbeatDeviceID = "heartbeat-device-id"
    case heartbeatHeaders = "heartbeat-headers"
    case telemetryEndpoint = "telemetry-endpoint"
    case telemetryHeaders = "telemetry-headers"
    case telemetryExportInterval = "telemetry-export-interval"
    case telemetryLogInterval = "telemetry-log-interval"
    case telemetryBatchSize = "telemetry-batch-size"
    case telemetryResourceAttributes = "telemetry-resource-attributes"
    case telemetryCompression = "telemetry-compression"

    /// The prefix of every environment variable beaconctl reads.
    package static let environmentPrefix = "BEACONCTL_"

    /// `BEACONCTL_` and the name in upper snake case.
    package var environmentVariable: String {
        Self.environmentPrefix + rawValue.uppercased().replacing("-", with: "_")
    }

    /// The key an environment variable names, or nil when it names none.
    package init?(environmentVariable name: String) {
        guard let key = Self.allCases.first(where: { $0.environmentVariable == name }) else { return nil }
        self = key
    }

    package var flag: String { "--\(rawValue)" }

    /// The reporter whose table of the config file holds this key; nil for a top-level key.
    package var table: ReporterName? {
        ReporterName.allCases.first { $0 != .beacons && rawValue.hasPrefix($0.rawValue + "-") }
    }

    /// The key's name in its table (`endpoint`), or at the top level.
    package var nameInTable: String {
        guard let table else { return rawValue }
        return String(rawValue.dropFirst(table.rawValue.count + 1))
    }

    /// How messages name the key: `metadata-interval`, `media-analytics.endpoint` (TOML's dotted key).
    package var qualifiedName: String {
        table.map { "\($0.rawValue).\(nameInTable)" } ?? rawValue
    }

    /// The key named `name` in the table of `table` (nil: a top-level key), under our name or, in
    /// a reporter's table, a document's (``documentNames``); nil when there is none.
    package init?(table: ReporterName?, name: String) {
        let inTable = Self.allCases.filter { $0.table == table }
        guard let key = inTable.first(where: { $0.nameInTable == name }) ?? inTable.first(where: { table != nil && $0.documentNames.contains(name) })
        else { return nil }
        self = key
    }

    /// Keys sort in the order they are declared, which is the order `config check` prints.
    package static func < (lhs: SettingKey, rhs: SettingKey) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
