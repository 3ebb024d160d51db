import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// Settings from flags, environment and config file, with the real binary: precedence, `config check`, exit 78.
@Suite(.timeLimit(.minutes(5))) struct ConfigurationTests {
    @Test func configCheckShowsEachSettingAndWhereItCameFrom() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("b.toml")
        try "metadata-interval = 3\nretention = 30\ndrain-timeout = 7\nmetrics-address = \"localhost:9100\"\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await runBeaconctl(
            ["config", "check", file], environment: ["BEACONCTL_RETENTION": "20", "BEACONCTL_QUIET": "yes", "BEACONCTL_CONFIG": "/nonexistent"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "# configuration file: \(file)")
        for expected in [
            "# media-url is not set  # default",
            "metadata-interval = 3  # file \(file)",
            "retention = 20  # env BEACONCTL_RETENTION",
            "drain-timeout = 7  # file \(file)",
            "quiet = true  # env BEACONCTL_QUIET",
            "log-level = \"info\"  # default",
            "metrics-address = \"127.0.0.1:9100\"  # file \(file)",
        ] {
            #expect(lines.contains(expected), "\(expected)\n\(result.stdout)")
        }
    }

    @Test func theShippedConfigFilePassesCheckAndChangesNoDefault() async throws {
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/beaconctl.toml").path
        let result = try await runBeaconctl(["config", "check", shipped])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let settingLines = result.stdout.split(separator: "\n").dropFirst()
        #expect(settingLines.count == SettingKey.allCases.count)
        #expect(settingLines.allSatisfy { $0.hasSuffix("# default") }, "\(result.stdout)")
    }

    /// The control socket shows which source won: the daemon listens where the flag, else the
    /// environment, else the file says; `status` finds it there.
    @Test func flagsWinOverTheEnvironmentWhichWinsOverTheFile() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("b.toml")
        try "socket = \"\(directory.file("file.sock"))\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let fileAndEnvironment = ["BEACONCTL_CONFIG": file, "BEACONCTL_SOCKET": directory.file("env.sock")]

        try await withDaemon([], environment: fileAndEnvironment) { daemon in
            try await daemon.waitUntilListening()
            #expect(!FileManager.default.fileExists(atPath: directory.file("env.sock")))
            #expect(!FileManager.default.fileExists(atPath: directory.file("file.sock")))
        }
        for (environment, socket) in [(fileAndEnvironment, "env.sock"), (["BEACONCTL_CONFIG": file], "file.sock")] {
            let child = try ChildProcess(executable: BeaconctlBinary.path, arguments: ["run"], environment: environment)
            defer { child.kill() }
            let status = try await eventuallyValue(timeout: .seconds(10), "a daemon on \(socket)\n\(child.stderr.text)") {
                try? await ControlSocketClient.request(path: directory.file(socket), line: "status", timeout: .seconds(2))
            }
            #expect(try StatusReport.decode(jsonLine: status).state == "idle")
            // Clients look for the daemon where it listens, with the same environment and file.
            let client = try await runBeaconctl(["status", "--json"], environment: environment)
            #expect(client.status == 0, "\(client.stderr)")
        }
    }

    struct BadConfiguration: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var file: String?
        var environment: [String: String]
        /// The one line expected on stderr; `FILE` stands for the config file's path.
        var line: String
        var testDescription: String { name }
    }

    static let badConfigurations = [
        BadConfiguration(
            name: "bad file value", arguments: [], file: "retention = 0\n", environment: [:],
            line: "retention (file FILE): must be a number of seconds above 0 and at most a week"),
        BadConfiguration(
            name: "bad env value", arguments: [], file: nil, environment: ["BEACONCTL_METADATA_INTERVAL": "2s"],
            line: "metadata-interval (env BEACONCTL_METADATA_INTERVAL): must be a number of seconds above 0 and at most a week"),
        BadConfiguration(
            name: "unknown key", arguments: [], file: "quiet = true\nmetadata-intervall = 2\n", environment: [:],
            line: "metadata-intervall (file FILE): unknown key (did you mean metadata-interval?)"),
        BadConfiguration(
            name: "unknown variable", arguments: [], file: nil, environment: ["BEACONCTL_LOGLEVEL": "debug"],
            line: "env BEACONCTL_LOGLEVEL: unknown variable"),
        BadConfiguration(
            name: "malformed TOML", arguments: [], file: "quiet = true\nretention = = 2\n", environment: [:],
            line: "file FILE line 2 column 13: Error while parsing value: could not determine value type"),
        BadConfiguration(
            name: "bad log level beside a good file", arguments: [], file: "log-level = \"loud\"\n", environment: ["BEACONCTL_RETENTION": "5"],
            line: "log-level (file FILE): must be one of trace, debug, info, notice, warning, error, critical"),
        BadConfiguration(
            name: "missing named file", arguments: [], file: nil, environment: ["BEACONCTL_CONFIG": "/nonexistent/b.toml"],
            line: "config (env BEACONCTL_CONFIG): cannot read /nonexistent/b.toml: No such file or directory"),
        BadConfiguration(
            name: "bad metrics address", arguments: [], file: "metrics-address = \"0.0.0.0\"\n", environment: [:],
            line: "metrics-address (file FILE): expected PORT or HOST:PORT"),
    ]

    /// Writes the case's file, if any, and names it in BEACONCTL_CONFIG.
    func prepare(_ bad: BadConfiguration, in directory: TemporaryDirectory) throws -> (environment: [String: String], line: String) {
        var environment = bad.environment
        let path = directory.file("bad.toml")
        if let text = bad.file {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            environment["BEACONCTL_CONFIG"] = path
        }
        return (environment, "beaconctl: invalid configuration: " + bad.line.replacing("FILE", with: path))
    }

    @Test(arguments: badConfigurations)
    func runExits78WithOneLineAndStartsNothing(bad: BadConfiguration) async throws {
        let directory = try TemporaryDirectory()
        let (environment, line) = try prepare(bad, in: directory)
        let socket = directory.file("c.sock")
        let result = try await runBeaconctl(
            ["run", "--socket", socket, "--media-url", "http://127.0.0.1:9/never?sessid=1"] + bad.arguments, environment: environment)
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr == line + "\n")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test(arguments: badConfigurations)
    func configCheckExits78WithTheSameLine(bad: BadConfiguration) async throws {
        let directory = try TemporaryDirectory()
        let (environment, line) = try prepare(bad, in: directory)
        let result = try await runBeaconctl(["config", "check"], environment: environment)
        #expect(result.status == 78, "\(result.stdout)")
        #expect(result.stderr == line + "\n")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        (["--metadata-interval", "0"], "metadata-interval (flag --metadata-interval): must be a number of seconds above 0 and at most a week"),
        (["--drain-timeout", "nan"], "drain-timeout (flag --drain-timeout): must be a number of seconds above 0 and at most a week"),
        (["--log-level", "verbose"], "log-level (flag --log-level): must be one of trace, debug, info, notice, warning, error, critical"),
        (["--metrics-address", "::1:80"], "metrics-address (flag --metrics-address): put an IPv6 address in brackets: [IPV6]:PORT"),
        (["--tracking-url", "http://127.0.0.1:9/m"], "tracking-url (flag --tracking-url): needs media-url (the stream the player plays)"),
        (["--media-url", "file:///etc/passwd"], "media-url (flag --media-url): scheme 'file' is not http or https"),
        (["--config", "/nonexistent/b.toml"], "config (flag --config): cannot read /nonexistent/b.toml: No such file or directory"),
    ])
    func aBadFlagValueExits78Too(arguments: [String], line: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await runBeaconctl(["run", "--socket", directory.file("c.sock")] + arguments)
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr == "beaconctl: invalid configuration: \(line)\n")
    }

    @Test func underJournaldTheLineIsMarkedAsAnError() async throws {
        let result = try await runBeaconctl(["config", "check"], environment: ["BEACONCTL_RETENTION": "-1", "JOURNAL_STREAM": "8:1"])
        #expect(result.status == 78)
        #expect(
            result.stderr == "<3>beaconctl: invalid configuration: retention (env BEACONCTL_RETENTION): must be a number of seconds above 0 and at most a week\n")
    }
}
