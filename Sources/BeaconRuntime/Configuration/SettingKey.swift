import BeaconDomain
/// One setting of `beaconctl run`, named as in the config file and the long flag (`metadata-interval`,
/// `--metadata-interval`, `BEACONCTL_METADATA_INTERVAL`).
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

    /// Keys sort in the order they are declared, which is the order `config check` prints.
    package static func < (lhs: SettingKey, rhs: SettingKey) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
