import BeaconDomain
import Testing

/// The heartbeat's default device id: systemd's application-specific id of the machine id, never
/// the machine id, and nothing for a text that is no machine id. The vectors were checked against
/// `systemd-id128 machine-id --app-specific=b2a6c5b66a9c77a8c9b73f22d2b7d310` (systemd 252).
@Suite(.timeLimit(.minutes(2))) struct MachineAppSpecificIDTests {
    @Test func theApplicationIDIsTheHashOfTheHeartbeatsName() {
        #expect(MachineAppSpecificID.applicationIDHex(MachineAppSpecificID.heartbeat) == "b2a6c5b66a9c77a8c9b73f22d2b7d310")
    }

    @Test(arguments: [
        ("0123456789abcdef0123456789abcdef\n", "e883603aafbe42af9005cca3d8cb3900"),
        ("fedcba9876543210fedcba9876543210\n", "dc52fb3ca6084265bc0e726ece37fbb4"),
        // Upper case and no newline read alike.
        ("0123456789ABCDEF0123456789ABCDEF", "e883603aafbe42af9005cca3d8cb3900"),
    ])
    func derivesSystemdsApplicationSpecificID(machineID: String, deviceID: String) throws {
        let derived = try #require(MachineAppSpecificID.derived(fromMachineID: machineID, application: MachineAppSpecificID.heartbeat))
        #expect(derived == deviceID)
        #expect(!derived.contains(machineID.lowercased().prefix(32)))
    }

    @Test func theIDIsAVersion4UUID() throws {
        let derived = Array(try #require(MachineAppSpecificID.derived(fromMachineID: "0123456789abcdef0123456789abcdef", application: MachineAppSpecificID.heartbeat)).utf8)
        #expect(derived.count == 32)
        #expect(derived[12] == UInt8(ascii: "4"))
        #expect([UInt8]("89ab".utf8).contains(derived[16]))
    }

    @Test(arguments: [
        "", "\n", "uninitialized\n", "00000000000000000000000000000000\n", "0123456789abcdef0123456789abcde\n",
        "0123456789abcdef0123456789abcdef0\n", "0123456789abcdef0123456789abcdeg\n", "0123456789abcdef 0123456789abcdef\n",
    ])
    func aTextThatIsNoMachineIDGivesNoID(machineID: String) {
        #expect(MachineAppSpecificID.derived(fromMachineID: machineID, application: MachineAppSpecificID.heartbeat) == nil)
    }

    @Test func theSettingWinsOverTheMachineID() {
        var settings = HeartbeatSettings()
        #expect(settings.effectiveDeviceID(machineID: "0123456789abcdef0123456789abcdef\n") == "e883603aafbe42af9005cca3d8cb3900")
        #expect(settings.effectiveDeviceID(machineID: nil) == nil)
        settings.deviceID = "living-room"
        #expect(settings.effectiveDeviceID(machineID: "0123456789abcdef0123456789abcdef\n") == "living-room")
    }
}
