import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct ControlSocketPathTests {
    @Test func systemdsRuntimeDirectoryComesFirst() {
        #expect(ControlSocketPath.standard(environment: ["RUNTIME_DIRECTORY": "/run/beaconctl", "XDG_RUNTIME_DIR": "/run/user/0"], userID: 61_000)
            == "/run/beaconctl/control.sock")
        #expect(ControlSocketPath.standard(environment: ["RUNTIME_DIRECTORY": "/run/a:/run/b"], userID: 0) == "/run/a/control.sock")
    }

    @Test func rootMeansTheSystemDaemonEvenInALoginSession() {
        #expect(ControlSocketPath.standard(environment: ["XDG_RUNTIME_DIR": "/run/user/0"], userID: 0) == "/run/beaconctl/control.sock")
        #expect(ControlSocketPath.standard(environment: [:], userID: 0) == ControlSocketPath.system)
    }

    @Test func othersGetTheirOwn() {
        #expect(ControlSocketPath.standard(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000)
            == "/run/user/1000/beaconctl/control.sock")
        #expect(ControlSocketPath.standard(environment: ["XDG_RUNTIME_DIR": ""], userID: 1000) == "/tmp/beaconctl-1000/control.sock")
    }
}
