/// The version scheme: `linux-<major>.<minor>.<micro>.<patch>--<commit>`, the platform, the release
/// numbers, then the first 7 hex digits of the git commit the binary was built from.
public struct ReleaseVersion: Sendable, Equatable, CustomStringConvertible {
    /// The platform this build runs on, first in the version string.
    public static let platform = "linux"
    /// What stands for the commit when the build had none (a tree without `.git`).
    public static let unknownCommit = "0000000"

    public var major: Int
    public var minor: Int
    public var micro: Int
    public var patch: Int
    /// 7 lowercase hex digits.
    public var commit: String

    /// `commit` is cut to its first 7 digits; anything but hex becomes ``unknownCommit``.
    public init(major: Int, minor: Int, micro: Int, patch: Int, commit: String) {
        self.major = major
        self.minor = minor
        self.micro = micro
        self.patch = patch
        let digits = commit.lowercased().prefix(7)
        self.commit = digits.count == 7 && digits.allSatisfy(\.isHexDigit) ? String(digits) : Self.unknownCommit
    }

    public var description: String {
        "\(Self.platform)-\(major).\(minor).\(micro).\(patch)--\(commit)"
    }

    /// What `beaconctl --version` prints: the version and the control socket's API level.
    public var versionLine: String {
        "\(self) (api \(StatusReport.currentAPILevel))"
    }
}
