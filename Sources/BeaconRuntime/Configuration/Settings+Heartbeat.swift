import BeaconDomain

extension HeartbeatSettings {
    /// The most failed heartbeats in a row a setting may wait for.
    static let maxFailures = 1000

    /// Takes one `[heartbeat]` key's value, validated.
    mutating func assign(_ value: SettingValue, to key: SettingKey) throws(Settings.Refusal) {
        switch key {
        case .heartbeatEndpoint: endpoint = try Settings.url(value)
        case .heartbeatConcurrencyEndpoint: concurrencyEndpoint = try Settings.url(value)
        case .heartbeatSyncInterval: syncInterval = .seconds(try Settings.seconds(value))
        case .heartbeatMaxAllowedFailures: maxAllowedFailures = try Settings.count(value, in: 1...Self.maxFailures)
        case .heartbeatRecordBookmark: recordBookmark = try Settings.boolean(value)
        case .heartbeatMultiStreamMode: multiStreamMode = try Settings.boolean(value)
        case .heartbeatPlaybackStopOnPlaybackEnd: playbackStopOnPlaybackEnd = try Settings.boolean(value)
        case .heartbeatPostSlateDuration: postSlateDuration = .seconds(try Settings.seconds(value, zeroAllowed: true))
        case .heartbeatTrackViewersCount: trackViewersCount = try Settings.boolean(value)
        case .heartbeatDeviceID:
            let id = try Settings.identifier(value, maxBytes: 128)
            deviceID = id.isEmpty ? nil : id
        case .heartbeatHeaders: headers = try Settings.headers(value, reserved: HeartbeatRequest.reservedHeaders)
        default: preconditionFailure("\(key) is not a [heartbeat] key")
        }
    }

    /// One `[heartbeat]` key as the file writes it, or nil when unset.
    func tomlValue(of key: SettingKey) -> String? {
        switch key {
        case .heartbeatEndpoint: endpoint.map(Settings.quoted)
        case .heartbeatConcurrencyEndpoint: concurrencyEndpoint.map(Settings.quoted)
        case .heartbeatSyncInterval: Settings.number(Settings.seconds(of: syncInterval))
        case .heartbeatMaxAllowedFailures: "\(maxAllowedFailures)"
        case .heartbeatRecordBookmark: "\(recordBookmark)"
        case .heartbeatMultiStreamMode: "\(multiStreamMode)"
        case .heartbeatPlaybackStopOnPlaybackEnd: "\(playbackStopOnPlaybackEnd)"
        case .heartbeatPostSlateDuration: Settings.number(Settings.seconds(of: postSlateDuration))
        case .heartbeatTrackViewersCount: "\(trackViewersCount)"
        case .heartbeatDeviceID: deviceID.map(Settings.quoted)
        case .heartbeatHeaders: headers.isEmpty ? nil : Settings.inlineTable(headers)
        default: preconditionFailure("\(key) is not a [heartbeat] key")
        }
    }
}
