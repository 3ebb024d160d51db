import BeaconDomain
extension SettingsLoader.Loaded {
    /// What `beaconctl config check` prints: the file read, then every setting as a TOML line with its
    /// source as a comment (`metadata-interval = 5  # env BEACONCTL_METADATA_INTERVAL`), a
    /// reporter's as a dotted key (`media-analytics.endpoint = ...`, the same as `endpoint` in
    /// `[media-analytics]`); unset ones commented out, so the output is itself a valid config file,
    /// header values masked.
    package var report: String {
        var lines = ["# configuration file: \(file?.path ?? "none")"]
        for key in SettingKey.allCases {
            let source = settings.source(of: key).describe(key)
            if let value = settings.shownValue(of: key) {
                lines.append("\(key.qualifiedName) = \(value)  # \(source)")
            } else {
                lines.append("# \(key.qualifiedName) is not set  # \(source)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
