import BeaconCore
import Foundation
import Testing

/// The systemd unit passes systemd's own checks, and `make install` and `make deb` lay out the
/// binary, the unit and the configuration where the unit expects them.
@Suite struct PackagingTests {
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let unit = packageDirectory + "/systemd/beaconctl.service"
    static let systemdAnalyze = "/usr/bin/systemd-analyze"
    static let hasSystemdAnalyze = FileManager.default.isExecutableFile(atPath: systemdAnalyze)

    static func unitSettings() throws -> [String: String] {
        var settings: [String: String] = [:]
        for line in try String(contentsOfFile: unit, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            settings[String(line[..<equals]), default: ""] += String(line[line.index(after: equals)...])
        }
        return settings
    }

    @Test func theUnitNotifiesOutlastsTheDrainAndHasAWatchdog() throws {
        let settings = try Self.unitSettings()
        #expect(settings["Type"] == "notify")
        #expect(settings["NotifyAccess"] == "main")
        #expect(settings["ExecStart"] == "/usr/bin/beaconctl run --config /etc/beaconctl/beaconctl.toml")
        #expect(settings["RuntimeDirectory"] == "beaconctl")
        #expect(settings["StateDirectory"] == "beaconctl")
        #expect(settings["DynamicUser"] == "yes")
        #expect(settings["CapabilityBoundingSet"] == "")
        let watchdog = try #require(settings["WatchdogSec"].flatMap { Int64($0) })
        #expect(watchdog >= 10, "petted every half of it, from a 1 s loop")
        let stopTimeout = try #require(settings["TimeoutStopSec"].flatMap { Int64($0) })
        #expect(Duration.seconds(stopTimeout) > DaemonConfiguration(version: "").drainTimeout + .seconds(5))
    }

    @Test(.enabled(if: hasSystemdAnalyze, "systemd-analyze is not installed: the unit is not verified"))
    func systemdVerifiesTheUnit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // verify wants ExecStart's program to exist: point it at the binary under test.
        let text = try String(contentsOfFile: Self.unit, encoding: .utf8)
        let copy = text.replacingOccurrences(of: "ExecStart=/usr/bin/beaconctl ", with: "ExecStart=\(BeaconctlBinary.path) ")
        #expect(copy != text)
        try copy.write(toFile: directory.file("beaconctl.service"), atomically: true, encoding: .utf8)
        let verify = try await runProgram(Self.systemdAnalyze, ["verify", directory.file("beaconctl.service")])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(!verify.stderr.contains("beaconctl.service"), "\(verify.stderr)")
    }

    @Test(.enabled(if: hasSystemdAnalyze, "systemd-analyze is not installed: the unit's exposure is not rated"))
    func systemdRatesTheUnitExposureAtMostOnePointFive() async throws {
        let security = try await runProgram(Self.systemdAnalyze, ["security", "--offline=yes", Self.unit])
        #expect(security.status == 0, "\(security.stderr)")
        let match = try #require(security.stdout.firstMatch(of: /Overall exposure level for beaconctl\.service: (\d+\.\d+)/),
            "\(security.stdout.suffix(500))")
        let score = try #require(Double(match.1))
        #expect(score <= 1.5, "\(security.stdout)")
    }
}
