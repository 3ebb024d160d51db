import BeaconDomain
/// Why a configuration is refused, as one line naming the bad key and its source:
/// `metadata-interval (file /etc/beaconctl/beaconctl.toml): must be a number of seconds above 0 and at most a week`.
package struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong: a key and where it came from, or a file position.
    package var subject: String
    package var reason: String

    package init(subject: String, reason: String) {
        self.subject = subject
        self.reason = reason
    }

    package init(key: SettingKey, source: SettingSource, reason: String) {
        self.init(subject: "\(key.qualifiedName) (\(source.describe(key)))", reason: reason)
    }

    /// The exit status for a bad configuration (`EX_CONFIG` of sysexits.h): no tracking starts.
    package static let exitStatus: Int32 = 78

    /// Always one line: a reason from a parser may carry line breaks.
    package var description: String {
        "\(subject): \(reason)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
