import BeaconDomain

extension SettingKey {
    /// The names the documents a reporter comes from give this key, accepted in that reporter's
    /// table beside ours: Quickplay's heartbeat configuration, Adobe's media SDK and Analytics
    /// plug-in. Flags and environment variables keep our names; `config check` prints ours.
    package var documentNames: [String] {
        switch self {
        case .heartbeatEndpoint: ["heartbeatEndPointUrl"]
        case .heartbeatConcurrencyEndpoint: ["streamConcurrencyEndPointUrl"]
        case .heartbeatSyncInterval: ["syncInterval"]
        case .heartbeatMaxAllowedFailures: ["maxAllowedFailures"]
        case .heartbeatRecordBookmark: ["recordBookmark"]
        case .heartbeatMultiStreamMode: ["multiStreamMode"]
        case .heartbeatPlaybackStopOnPlaybackEnd: ["playbackStopOnPlaybackEnd"]
        case .heartbeatPostSlateDuration: ["postSlateDuration"]
        case .heartbeatTrackViewersCount: ["trackViewersCount"]
        case .heartbeatDeviceID: ["deviceId"]
        case .mediaAnalyticsTrackingServer: ["trackingServer"]
        case .mediaAnalyticsReportSuite: ["rsids"]
        case .mediaAnalyticsPlayerName: ["playerName"]
        case .mediaAnalyticsSSL: ["ssl"]
        case .mediaAnalyticsJobID: ["jobId"]
        case .mediaAnalyticsQuiet: ["quietMode"]
        case .mediaAnalyticsDebugLogging: ["debugLogging"]
        case .mediaAnalyticsPrivacyDefault: ["privacyDefault"]
        case .mediaAnalyticsOfflineEnabled: ["offlineEnabled"]
        default: []
        }
    }

    /// Every name a key of `table` may have in the file; at the top level, every key's full name.
    package static func fileNames(in table: ReporterName?) -> [String] {
        guard let table else { return allCases.map(\.rawValue) }
        return allCases.filter { $0.table == table }.flatMap { [$0.nameInTable] + $0.documentNames }
    }

    /// Why a key of the file is refused: unknown, and the known name nearest to it, if any.
    package static func unknownKeyReason(_ name: String, in table: ReporterName?) -> String {
        NameSuggestion.nearest(to: name, among: fileNames(in: table)).map { "unknown key (did you mean \($0)?)" } ?? "unknown key"
    }
}
