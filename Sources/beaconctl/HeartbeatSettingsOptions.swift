import ArgumentParser
import BeaconRuntime

/// The flags of the `[heartbeat]` table; like every setting flag, text until `Settings` validates it.
struct HeartbeatSettingsOptions: ParsableArguments {
    @Option(name: .customLong("heartbeat-endpoint"), help: settingHelp("Heartbeat service URL: enables the heartbeat reporter (default: off).", .heartbeatEndpoint, valueName: "url"))
    var heartbeatEndpoint: String?

    @Option(name: .customLong("heartbeat-concurrency-endpoint"), help: settingHelp("Where stream starts and stops are counted against the account's limit (default: none).", .heartbeatConcurrencyEndpoint, valueName: "url"))
    var heartbeatConcurrencyEndpoint: String?

    @Option(name: .customLong("heartbeat-sync-interval"), help: settingHelp("Seconds between heartbeats; a playback's freq overrides it (default 60).", .heartbeatSyncInterval, valueName: "seconds"))
    var heartbeatSyncInterval: String?

    @Option(name: .customLong("heartbeat-max-allowed-failures"), help: settingHelp("Failed heartbeats in a row that stop a live playback (default 2).", .heartbeatMaxAllowedFailures, valueName: "count"))
    var heartbeatMaxAllowedFailures: String?

    @Flag(name: .customLong("heartbeat-record-bookmark"), inversion: .prefixedNo, help: settingHelp("Keep the last position of each VOD content id (default false).", .heartbeatRecordBookmark))
    var heartbeatRecordBookmark: Bool?

    @Flag(name: .customLong("heartbeat-multi-stream-mode"), inversion: .prefixedNo, help: settingHelp("Send multiStream true: one of several streams on this box (default false).", .heartbeatMultiStreamMode))
    var heartbeatMultiStreamMode: Bool?

    @Flag(name: .customLong("heartbeat-playback-stop-on-playback-end"), inversion: .prefixedNo, help: settingHelp("Stop a live playback when its playhead passes liveEndTime (default true).", .heartbeatPlaybackStopOnPlaybackEnd))
    var heartbeatPlaybackStopOnPlaybackEnd: Bool?

    @Option(name: .customLong("heartbeat-post-slate-duration"), help: settingHelp("Seconds the post-slate of an overflow event plays before overflowEventEnd (default 0).", .heartbeatPostSlateDuration, valueName: "seconds"))
    var heartbeatPostSlateDuration: String?

    @Flag(name: .customLong("heartbeat-track-viewers-count"), inversion: .prefixedNo, help: settingHelp("Send trackViewersCount true (default false).", .heartbeatTrackViewersCount))
    var heartbeatTrackViewersCount: Bool?

    @Option(name: .customLong("heartbeat-device-id"), help: settingHelp("The box's id as sent (default: a stable id derived from /etc/machine-id).", .heartbeatDeviceID, valueName: "id"))
    var heartbeatDeviceID: String?

    @Option(name: .customLong("heartbeat-headers"), help: settingHelp("Extra request headers, 'Name: value' pairs separated by ';' (in the file: a table of strings).", .heartbeatHeaders, valueName: "headers"))
    var heartbeatHeaders: String?

    func add(to layer: inout SettingsLayer) {
        let texts: [(SettingKey, String?)] = [
            (.heartbeatEndpoint, heartbeatEndpoint), (.heartbeatConcurrencyEndpoint, heartbeatConcurrencyEndpoint),
            (.heartbeatSyncInterval, heartbeatSyncInterval), (.heartbeatMaxAllowedFailures, heartbeatMaxAllowedFailures),
            (.heartbeatPostSlateDuration, heartbeatPostSlateDuration), (.heartbeatDeviceID, heartbeatDeviceID),
            (.heartbeatHeaders, heartbeatHeaders),
        ]
        for case (let key, let text?) in texts { layer.values[key] = .text(text) }
        let flags: [(SettingKey, Bool?)] = [
            (.heartbeatRecordBookmark, heartbeatRecordBookmark), (.heartbeatMultiStreamMode, heartbeatMultiStreamMode),
            (.heartbeatPlaybackStopOnPlaybackEnd, heartbeatPlaybackStopOnPlaybackEnd), (.heartbeatTrackViewersCount, heartbeatTrackViewersCount),
        ]
        for case (let key, let flag?) in flags { layer.values[key] = .boolean(flag) }
    }
}
