import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct ReleaseVersionTests {
    @Test func followsThePlatformNumbersCommitScheme() {
        let version = ReleaseVersion(major: 0, minor: 2, micro: 0, patch: 7, commit: "1a2b3c4")
        #expect(version.description == "linux-0.2.0.7--1a2b3c4")
        #expect(version.versionLine == "linux-0.2.0.7--1a2b3c4 (api \(StatusReport.currentAPILevel))")
    }

    @Test func keepsTheFirstSevenHexDigitsInLowerCase() {
        #expect(ReleaseVersion(major: 1, minor: 0, micro: 0, patch: 0, commit: "1A2B3C4D5E6F").commit == "1a2b3c4")
    }

    @Test(arguments: ["", "abc", "unknown", "1a2b3cz", "0000000"])
    func anythingElseIsTheUnknownCommit(commit: String) {
        #expect(ReleaseVersion(major: 1, minor: 0, micro: 0, patch: 0, commit: commit).commit == "0000000")
    }
}
