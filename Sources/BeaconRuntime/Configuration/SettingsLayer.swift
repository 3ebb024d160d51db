import BeaconDomain
/// The settings one source gives: the flags, the environment or a config file.
package struct SettingsLayer: Sendable, Equatable {
    package var source: SettingSource
    package var values: [SettingKey: SettingValue]

    package init(source: SettingSource, values: [SettingKey: SettingValue] = [:]) {
        self.source = source
        self.values = values
    }

    /// The `BEACONCTL_<KEY>` variables of `environment`. An empty variable counts as unset; any other
    /// `BEACONCTL_` variable but `BEACONCTL_CONFIG` is an error, so a misspelt name cannot pass unnoticed.
    package static func environment(_ environment: [String: String]) throws(ConfigurationError) -> SettingsLayer {
        var layer = SettingsLayer(source: .environment)
        for (name, value) in environment where name.hasPrefix(SettingKey.environmentPrefix) && name != ConfigurationFile.environmentVariable {
            guard let key = SettingKey(environmentVariable: name) else {
                throw ConfigurationError(subject: "env \(name)", reason: "unknown variable")
            }
            if !value.isEmpty { layer.values[key] = .text(value) }
        }
        return layer
    }
}
