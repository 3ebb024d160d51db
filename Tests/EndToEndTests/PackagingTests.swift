import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// The systemd units (the daemon, and the template of one daemon per stream) pass systemd's own
/// checks, and `make install` and `make deb` lay out the binary, the units and the configuration
/// where the units expect them.
@Suite(.timeLimit(.minutes(5))) struct PackagingTests {
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let unit = packageDirectory + "/systemd/beaconctl.service"
    /// One daemon per instance name: `beaconctl@pip.service` for a picture-in-picture stream.
    static let templatedUnit = packageDirectory + "/systemd/beaconctl@.service"
    static let systemdAnalyze = "/usr/bin/systemd-analyze"
    static let hasSystemdAnalyze = FileManager.default.isExecutableFile(atPath: systemdAnalyze)
    static let hasDpkgDeb = FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb")

    static func unitSettings(_ path: String = unit) throws -> [String: String] {
        var settings: [String: String] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
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
        // `systemctl reload` sends SIGHUP: the daemon re-reads its configuration.
        #expect(settings["ExecReload"] == "/bin/kill -HUP $MAINPID")
        #expect(settings["RuntimeDirectory"] == "beaconctl")
        #expect(settings["StateDirectory"] == "beaconctl")
        #expect(settings["DynamicUser"] == "yes")
        #expect(settings["CapabilityBoundingSet"] == "")
        let watchdog = try #require(settings["WatchdogSec"].flatMap { Int64($0) })
        #expect(watchdog >= 10, "petted every half of it, from a 1 s loop")
        let stopTimeout = try #require(settings["TimeoutStopSec"].flatMap { Int64($0) })
        #expect(Duration.seconds(stopTimeout) > DaemonConfiguration(version: "").drainTimeout + .seconds(5))
    }

    @Test func eachInstanceOfTheTemplatedUnitHasItsOwnConfigurationSocketJournalAndUser() throws {
        let main = try Self.unitSettings()
        let instance = try Self.unitSettings(Self.templatedUnit)
        #expect(instance["ExecStart"] == "/usr/bin/beaconctl run --config /etc/beaconctl/%i.toml")
        // The daemon's default socket and state directory are $RUNTIME_DIRECTORY's and $STATE_DIRECTORY's.
        #expect(instance["RuntimeDirectory"] == "beaconctl-%i")
        #expect(instance["StateDirectory"] == "beaconctl-%i")
        #expect(instance["User"] == "beaconctl-%i")
        // Two instances on one box are two telemetry instances.
        #expect(instance["Environment"] == "BEACONCTL_INSTANCE=%i")
        // Hardened, notified, watched and stopped like the main unit: nothing else differs.
        let perInstance: Set = ["Description", "ExecStart", "RuntimeDirectory", "StateDirectory", "User", "Environment"]
        for key in Set(main.keys).union(instance.keys).subtracting(perInstance) {
            #expect(main[key] == instance[key], "\(key)")
        }
    }

    @Test(.enabled(if: hasSystemdAnalyze, "systemd-analyze is not installed: the unit is not verified"))
    func systemdVerifiesTheUnit() async throws {
        try await Self.verify(Self.unit, as: "beaconctl.service")
    }

    @Test(.enabled(if: hasSystemdAnalyze, "systemd-analyze is not installed: the templated unit is not verified"))
    func systemdVerifiesAnInstanceOfTheTemplatedUnit() async throws {
        try await Self.verify(Self.templatedUnit, as: "beaconctl@.service", instance: "beaconctl@pip.service")
    }

    /// Runs `systemd-analyze verify` on a copy of `path` named `name` (on `instance` of it, for a template).
    static func verify(_ path: String, as name: String, instance: String? = nil) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // verify wants ExecStart's program to exist: point it at the binary under test.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let copy = text.replacingOccurrences(of: "ExecStart=/usr/bin/beaconctl ", with: "ExecStart=\(BeaconctlBinary.path) ")
        #expect(copy != text)
        try copy.write(toFile: directory.file(name), atomically: true, encoding: .utf8)
        let verify = try await runProgram(Self.systemdAnalyze, ["verify", directory.file(instance ?? name)])
        #expect(verify.status == 0, "\(verify.stderr)")
        for unit in [name, instance].compactMap({ $0 }) {
            #expect(!verify.stderr.contains(unit), "\(verify.stderr)")
        }
    }

    @Test(.enabled(if: hasSystemdAnalyze, "systemd-analyze is not installed: the unit's exposure is not rated"))
    func systemdRatesTheUnitExposureAtMostOnePointFive() async throws {
        try await Self.expectExposureAtMostOnePointFive(Self.unit, unitName: "beaconctl.service")
    }

    @Test(.enabled(if: hasSystemdAnalyze, "systemd-analyze is not installed: the templated unit's exposure is not rated"))
    func systemdRatesAnInstanceExposureAtMostOnePointFive() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let instance = directory.file("beaconctl@pip.service")
        try String(contentsOfFile: Self.templatedUnit, encoding: .utf8).write(toFile: instance, atomically: true, encoding: .utf8)
        try await Self.expectExposureAtMostOnePointFive(instance, unitName: "beaconctl@pip.service")
    }

    static func expectExposureAtMostOnePointFive(_ path: String, unitName: String) async throws {
        let security = try await runProgram(Self.systemdAnalyze, ["security", "--offline=yes", path])
        #expect(security.status == 0, "\(security.stderr)")
        let match = try #require(
            security.stdout.firstMatch(of: /Overall exposure level for (\S+): (\d+\.\d+)/), "\(security.stdout.suffix(500))")
        #expect(match.1 == unitName)
        let score = try #require(Double(match.2))
        #expect(score <= 1.5, "\(security.stdout)")
    }

    /// A stand-in for the release binary: the layout is under test, not the program.
    static func standInBinary(in directory: TemporaryDirectory) throws -> String {
        let binary = directory.file("beaconctl-stand-in")
        try "#!/bin/sh\necho stand-in\n".write(toFile: binary, atomically: true, encoding: .utf8)
        #expect(chmod(binary, 0o755) == 0)
        return binary
    }

    /// The default configuration that `make install` and `make deb` ship.
    static var defaultConfiguration: String {
        get throws { try String(contentsOfFile: packageDirectory + "/config/beaconctl.toml", encoding: .utf8) }
    }

    @Test func installLaysOutBinaryUnitAndConfigAndKeepsAChangedConfig() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let binary = try Self.standInBinary(in: directory)
        let root = directory.file("root")
        let arguments = ["-C", Self.packageDirectory, "install", "DESTDIR=\(root)", "PREFIX=/usr/local", "BINARY=\(binary)"]
        let install = try await runProgram("/usr/bin/make", arguments)
        #expect(install.status == 0, "\(install.stdout)\(install.stderr)")

        #expect(FileManager.default.isExecutableFile(atPath: root + "/usr/local/bin/beaconctl"))
        let unit = try String(contentsOfFile: root + "/usr/local/lib/systemd/system/beaconctl.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/local/bin/beaconctl run --config /etc/beaconctl/beaconctl.toml\n"))
        #expect(unit.contains("\nDocumentation=file:/usr/local/share/doc/beaconctl/README.md\n"), "the unit points at the README it installed")
        let templated = try String(contentsOfFile: root + "/usr/local/lib/systemd/system/beaconctl@.service", encoding: .utf8)
        #expect(templated.contains("\nExecStart=/usr/local/bin/beaconctl run --config /etc/beaconctl/%i.toml\n"))
        #expect(templated.contains("\nDocumentation=file:/usr/local/share/doc/beaconctl/README.md\n"))
        #expect(try String(contentsOfFile: root + "/etc/beaconctl/beaconctl.toml", encoding: .utf8) == Self.defaultConfiguration)
        #expect(FileManager.default.fileExists(atPath: root + "/usr/local/share/doc/beaconctl/README.md"))

        try "# changed by the operator\n".write(toFile: root + "/etc/beaconctl/beaconctl.toml", atomically: true, encoding: .utf8)
        let again = try await runProgram("/usr/bin/make", arguments)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("keeping the existing"))
        #expect(try String(contentsOfFile: root + "/etc/beaconctl/beaconctl.toml", encoding: .utf8) == "# changed by the operator\n")
    }

    @Test(.enabled(if: hasDpkgDeb, "dpkg-deb is not installed: no package is built"))
    func debHoldsTheLayoutAConffileAndAGuardedReload() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let binary = try Self.standInBinary(in: directory)
        let dist = directory.file("dist")
        let build = try await runProgram(
            "/usr/bin/make", ["-C", Self.packageDirectory, "deb", "DIST=\(dist)", "BINARY=\(binary)"], timeout: .seconds(60))
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let package = try #require(try FileManager.default.contentsOfDirectory(atPath: dist).first { $0.hasSuffix(".deb") })
        #expect(package.wholeMatch(of: /beaconctl_\d+\.\d+\.\d+\.\d+_[a-z0-9]+\.deb/) != nil, "\(package)")

        let info = try await runProgram("/usr/bin/dpkg-deb", ["--info", dist + "/" + package])
        #expect(info.stdout.contains("Package: beaconctl"))
        // What the binary links (readelf -d: libcurl, libsqlite3, libc and libm, libstdc++, libgcc_s).
        #expect(info.stdout.contains("Depends: libcurl4, libsqlite3-0, libc6, libstdc++6, libgcc-s1"))
        let contents = try await runProgram("/usr/bin/dpkg-deb", ["--contents", dist + "/" + package])
        let paths = [
            "./usr/bin/beaconctl", "./lib/systemd/system/beaconctl.service", "./lib/systemd/system/beaconctl@.service",
            "./etc/beaconctl/beaconctl.toml",
        ]
        for path in paths {
            #expect(contents.stdout.contains(" \(path)\n"), "\(path) in\n\(contents.stdout)")
        }
        #expect(contents.stdout.contains("root/root"))

        let control = directory.file("control")
        let extract = try await runProgram("/usr/bin/dpkg-deb", ["--control", dist + "/" + package, control])
        #expect(extract.status == 0, "\(extract.stderr)")
        #expect(try String(contentsOfFile: control + "/conffiles", encoding: .utf8) == "/etc/beaconctl/beaconctl.toml\n")
        let postinst = try String(contentsOfFile: control + "/postinst", encoding: .utf8)
        #expect(postinst.contains("[ -d /run/systemd/system ]") && postinst.contains("systemctl daemon-reload"))
    }
}
