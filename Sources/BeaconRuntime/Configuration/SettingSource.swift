import BeaconDomain
/// Where a setting's value came from, highest precedence first: flags, environment, file, defaults.
package enum SettingSource: Sendable, Hashable {
    case flag
    case environment
    /// The config file at this path.
    case file(String)
    case defaultValue

    /// How an operator finds the value again: `flag --retention`, `env BEACONCTL_RETENTION`,
    /// `file /etc/beaconctl/beaconctl.toml`, `default`.
    package func describe(_ key: SettingKey) -> String {
        switch self {
        case .flag: "flag \(key.flag)"
        case .environment: "env \(key.environmentVariable)"
        case .file(let path): "file \(path)"
        case .defaultValue: "default"
        }
    }
}
