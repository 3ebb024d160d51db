import BeaconDomain
/// What a reload of the configuration does to the running settings: the keys that change at run
/// time take their new values; the others keep theirs, and those that differ are named as needing
/// a restart (and named again at each reload until then).
///
/// The reporters' tables need a restart: a reporter is built with its settings, and a session it
/// has open with a back end keeps the endpoint and identity it started with. `quiet` applies to
/// every reporter at once.
package struct SettingsReload: Sendable, Equatable {
    /// The settings a running daemon can take on.
    package static let changeableAtRunTime: Set<SettingKey> = [.logLevel, .debugTracking, .quiet, .metadataInterval, .retention, .beaconMaxAge]

    /// The settings to run with from now on.
    package var settings: Settings
    /// Changed now, each as `key old -> new`.
    package var changed: [String]
    /// Differ but keep their running value until a restart; named without values, as URLs may carry tokens.
    package var needRestart: [SettingKey]

    package init(running: Settings, reloaded: Settings) {
        settings = running
        changed = []
        needRestart = []
        for key in SettingKey.allCases where running.tomlValue(of: key) != reloaded.tomlValue(of: key) {
            if Self.changeableAtRunTime.contains(key) {
                changed.append("\(key.qualifiedName) \(running.tomlValue(of: key) ?? "unset") -> \(reloaded.tomlValue(of: key) ?? "unset")")
            } else {
                needRestart.append(key)
            }
        }
        settings.logLevel = reloaded.logLevel
        settings.debugTracking = reloaded.debugTracking
        settings.quiet = reloaded.quiet
        settings.metadataInterval = reloaded.metadataInterval
        settings.retention = reloaded.retention
        settings.beaconMaxAge = reloaded.beaconMaxAge
        for key in Self.changeableAtRunTime { settings.sources[key] = reloaded.sources[key] }
    }
}
