/// The version scheme: `linux-<major>.<minor>.<micro>.<patch>--<commit>`, the platform, the release
/// numbers, then the first 7 hex digits of the git commit the binary was built from.
package struct ReleaseVersion: Sendable, Equatable, CustomStringConvertible {
    /// The platform this build runs on, first in the version string.
    package static let platform = "linux"
    /// What stands for the commit when the build had none (a tree without `.git`).
    package static let unknownCommit = "0000000"

    package var major: Int
    package var minor: Int
    package var micro: Int
    package var patch: Int
    /// 7 lowercase hex digits.
    package var commit: String

    /// `commit` is cut to its first 7 digits; anything but hex becomes ``unknownCommit``.
    package init(major: Int, minor: Int, micro: Int, patch: Int, commit: String) {
        self.major = major
        self.minor = minor
        self.micro = micro
        self.patch = patch
        let digits = commit.lowercased().prefix(7)
        self.commit = digits.count == 7 && digits.allSatisfy(\.isHexDigit) ? String(digits) : Self.unknownCommit
    }

    package var description: String {
        "\(Self.platform)-\(major).\(minor).\(micro).\(patch)--\(commit)"
    }

    /// What `beaconctl --version` prints: the version and the control socket's API level.
    package var versionLine: String {
        "\(self) (api \(StatusReport.currentAPILevel))"
    }
}
