import BeaconDomain
extension SettingsLoader.Loaded {
    /// What `beaconctl config check` prints: the file read, then every setting as a TOML line with its
    /// source as a comment (`metadata-interval = 5  # env BEACONCTL_METADATA_INTERVAL`); unset ones
    /// commented out, so the output is itself a valid config file.
    package var report: String {
        var lines = ["# configuration file: \(file?.path ?? "none")"]
        for key in SettingKey.allCases {
            let source = settings.source(of: key).describe(key)
            if let value = settings.tomlValue(of: key) {
                lines.append("\(key.rawValue) = \(value)  # \(source)")
            } else {
                lines.append("# \(key.rawValue) is not set  # \(source)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
