import BeaconDomain
import BeaconHTTP
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct StateDirectoryTests {
    let user: UInt32 = 1000

    @Test func systemdsStateDirectoryComesFirstForAnyUser() {
        for uid: UInt32 in [0, 1000] {
            let environment = ["STATE_DIRECTORY": "/var/lib/beaconctl-test", "XDG_STATE_HOME": "/x", "HOME": "/home/u"]
            #expect(StateDirectory.standard(environment: environment, userID: uid) == "/var/lib/beaconctl-test")
        }
    }

    @Test func ofSeveralStateDirectoriesTheFirstIsUsed() {
        #expect(StateDirectory.standard(environment: ["STATE_DIRECTORY": "/var/lib/a:/var/lib/b"], userID: user) == "/var/lib/a")
    }

    @Test func anEmptyStateDirectoryIsIgnored() {
        #expect(StateDirectory.standard(environment: ["STATE_DIRECTORY": "", "HOME": "/home/u"], userID: user) == "/home/u/.local/state/beaconctl")
        #expect(StateDirectory.standard(environment: ["STATE_DIRECTORY": ":", "HOME": "/home/u"], userID: user) == "/home/u/.local/state/beaconctl")
    }

    @Test func rootGetsTheSystemDirectory() {
        #expect(StateDirectory.standard(environment: ["XDG_STATE_HOME": "/x", "HOME": "/root"], userID: 0) == "/var/lib/beaconctl")
        #expect(StateDirectory.standard(environment: [:], userID: 0) == StateDirectory.system)
    }

    @Test func aUserGetsTheXDGStateHome() {
        #expect(StateDirectory.standard(environment: ["XDG_STATE_HOME": "/home/u/state", "HOME": "/home/u"], userID: user) == "/home/u/state/beaconctl")
    }

    @Test func anEmptyOrRelativeXDGStateHomeIsIgnored() {
        // The XDG base directory specification: a relative path is invalid and must be ignored.
        for value in ["", "state", "./state", "~/state"] {
            #expect(
                StateDirectory.standard(environment: ["XDG_STATE_HOME": value, "HOME": "/home/u"], userID: user) == "/home/u/.local/state/beaconctl",
                "XDG_STATE_HOME=\(value)")
        }
    }

    @Test func aUserWithoutXDGStateHomeGetsOneUnderHome() {
        #expect(StateDirectory.standard(environment: ["HOME": "/home/u"], userID: user) == "/home/u/.local/state/beaconctl")
    }

    @Test func aUserWithoutHomeGetsOneUnderTmpNamedAfterTheUser() {
        #expect(StateDirectory.standard(environment: [:], userID: user) == "/tmp/beaconctl-1000/state")
        #expect(StateDirectory.standard(environment: ["HOME": ""], userID: 4242) == "/tmp/beaconctl-4242/state")
    }
}
