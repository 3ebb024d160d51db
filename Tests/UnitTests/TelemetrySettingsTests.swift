import Testing

@testable import BeaconDomain
@testable import BeaconRuntime

/// The `[telemetry]` table and the top-level `instance` and `audit-max-*` keys: read from the file,
/// flags and variables, validated, listed by `config check` with header values masked, and
/// named by a reload as needing a restart.
@Suite(.timeLimit(.minutes(1))) struct TelemetrySettingsTests {
    func resolve(_ text: String, environment: [String: String] = [:]) throws(ConfigurationError) -> Settings {
        let layers = [try SettingsLayer.environment(environment), try ConfigurationFile.parse(text, path: "/c.toml")]
        return try Settings.resolve(layers, defaultSocket: "/s")
    }

    func refusal(_ text: String, environment: [String: String] = [:]) -> String? {
        configurationError { () throws(ConfigurationError) in try resolve(text, environment: environment) }
    }

    @Test func unsetTheReporterIsNotConfiguredAndTheAuditKeepsAWeekOf32MiB() throws {
        let settings = try resolve("")
        #expect(settings.telemetry == TelemetrySettings())
        #expect(!settings.telemetry.isConfigured)
        #expect(settings.instance == "default")
        #expect(settings.auditBounds == AuditBounds.standard)
        #expect(settings.telemetry.exportInterval == .seconds(60) && settings.telemetry.logInterval == .seconds(10))
        #expect(settings.telemetry.compression == .gzip && settings.telemetry.batchSize == 512)
    }

    @Test func everyKeyIsReadFromTheFile() throws {
        let settings = try resolve(
            """
            instance = "pip"
            audit-max-age = 86400
            audit-max-size = "512 KiB"
            [telemetry]
            endpoint = "https://otel.example.com:4318/"
            headers = { "Authorization" = "Api-Key k1" }
            export-interval = 30
            log-interval = 2.5
            batch-size = 100
            resource-attributes = { "deployment.environment" = "staging", "region" = "eu west" }
            compression = "NONE"
            """)
        var telemetry = TelemetrySettings()
        telemetry.endpoint = "https://otel.example.com:4318/"
        telemetry.headers = ["Authorization": "Api-Key k1"]
        telemetry.exportInterval = .seconds(30)
        telemetry.logInterval = .milliseconds(2500)
        telemetry.batchSize = 100
        telemetry.resourceAttributes = ["deployment.environment": "staging", "region": "eu west"]
        telemetry.compression = .none
        #expect(settings.telemetry == telemetry)
        #expect(settings.instance == "pip")
        #expect(settings.auditBounds == AuditBounds(maxAge: 86_400_000, maxBytes: 512 << 10))
    }

    @Test func variablesCarryTheTablesNameAndAttributesTheOpenTelemetryForm() throws {
        let settings = try resolve(
            "",
            environment: [
                "BEACONCTL_TELEMETRY_ENDPOINT": "http://127.0.0.1:4318", "BEACONCTL_INSTANCE": "kitchen",
                "BEACONCTL_TELEMETRY_RESOURCE_ATTRIBUTES": "deployment.environment=prod, device.model.identifier = stb-4k ,",
                "BEACONCTL_TELEMETRY_HEADERS": "X-Api-Key: k2", "BEACONCTL_AUDIT_MAX_SIZE": "1GiB",
            ])
        #expect(settings.telemetry.endpoint == "http://127.0.0.1:4318")
        #expect(settings.telemetry.resourceAttributes == ["deployment.environment": "prod", "device.model.identifier": "stb-4k"])
        #expect(settings.telemetry.headers == ["X-Api-Key": "k2"])
        #expect(settings.instance == "kitchen")
        #expect(settings.auditMaxSize == 1 << 30)
        #expect(settings.source(of: .telemetryEndpoint) == .environment)
    }

    @Test(arguments: [
        ("[telemetry]\nendpoint = \"ftp://o.test\"", "telemetry.endpoint (file /c.toml): scheme 'ftp' is not http or https"),
        ("[telemetry]\nendpoint = \"https://o.test/?key=1\"", "telemetry.endpoint (file /c.toml): must be a base URL without a query or fragment"),
        ("[telemetry]\nheaders = { \"Content-Encoding\" = \"br\" }", "telemetry.headers (file /c.toml): header Content-Encoding is set by the reporter"),
        ("[telemetry]\nexport-interval = 0.5", "telemetry.export-interval (file /c.toml): must be at least 1 second"),
        ("[telemetry]\nlog-interval = 0", "telemetry.log-interval (file /c.toml): must be a number of seconds above 0 and at most a week"),
        ("[telemetry]\nbatch-size = 9000", "telemetry.batch-size (file /c.toml): must be a whole number from 1 to 8192"),
        ("[telemetry]\ncompression = \"br\"", "telemetry.compression (file /c.toml): must be gzip or none, in quotes"),
        ("[telemetry]\nresource-attributes = \"region\"", "telemetry.resource-attributes (file /c.toml): must be 'key=value' pairs separated by ','"),
        ("[telemetry]\nresource-attributes = { \"a b\" = \"1\" }", "telemetry.resource-attributes (file /c.toml): attribute name 'a b' must be 1 to 255 printable ASCII characters without spaces"),
        ("[telemetry]\nresource-attributes = { \"n\" = 1 }", "telemetry.resource-attributes (file /c.toml): attribute n must be a string"),
        ("instance = \"\"", "instance (file /c.toml): must not be empty"),
        ("instance = \"a/b c\"", "instance (file /c.toml): must be at most 64 printable ASCII characters without spaces, in quotes"),
        ("audit-max-age = 8000000", "audit-max-age (file /c.toml): must be a number of seconds above 0 and at most 90 days"),
        ("audit-max-size = \"1 TiB\"", "audit-max-size (file /c.toml): must be a number of bytes (or KiB, MiB, GiB) from 65536 to 4294967296"),
        ("audit-max-size = 1024", "audit-max-size (file /c.toml): must be a number of bytes (or KiB, MiB, GiB) from 65536 to 4294967296"),
    ])
    func anInvalidValueNamesItsKeyAndSource(text: String, expected: String) {
        #expect(refusal(text) == expected)
    }

    @Test func configCheckMasksEveryHeaderValueAndReadsBack() throws {
        let settings = try resolve(
            """
            [telemetry]
            endpoint = "https://o.test"
            headers = { "Authorization" = "Api-Key secret-1" }
            [heartbeat]
            headers = { "X-Api-Key" = "secret-2" }
            """)
        let report = SettingsLoader.Loaded(settings: settings, file: .init(path: "/c.toml", namedBy: "argument")).report
        let lines = report.split(separator: "\n").map(String.init)
        #expect(lines.contains("telemetry.headers = { \"Authorization\" = \"***\" }  # file /c.toml"))
        #expect(lines.contains("heartbeat.headers = { \"X-Api-Key\" = \"***\" }  # file /c.toml"))
        #expect(lines.contains("telemetry.compression = \"gzip\"  # default"))
        #expect(lines.contains("audit-max-size = 33554432  # default"))
        #expect(!report.contains("secret"))
        let reread = try Settings.resolve([try ConfigurationFile.parse(report, path: "/c.toml")], defaultSocket: "/s")
        #expect(reread.telemetry.endpoint == settings.telemetry.endpoint && reread.auditBounds == settings.auditBounds)
    }

    @Test func aReloadNamesTheTelemetryTheInstanceAndTheAuditAsNeedingARestart() throws {
        let running = try resolve("[telemetry]\nendpoint = \"https://a.test\"\n")
        let reloaded = try resolve("instance = \"b\"\naudit-max-age = 3600\n[telemetry]\nendpoint = \"https://b.test\"\nheaders = { \"K\" = \"v\" }\n")
        let reload = SettingsReload(running: running, reloaded: reloaded)
        #expect(reload.needRestart == [.instance, .auditMaxAge, .telemetryEndpoint, .telemetryHeaders])
        #expect(reload.settings == running)
    }

    /// Two instances of the templated unit on one box are two `service.instance.id`s, neither the machine id.
    @Test func eachInstanceOnABoxHasItsOwnInstanceID() throws {
        let machineID = "0123456789abcdef0123456789abcdef\n"
        let main = try #require(MachineAppSpecificID.derived(fromMachineID: machineID, application: TelemetryResource.application(instance: "default")))
        let pip = try #require(MachineAppSpecificID.derived(fromMachineID: machineID, application: TelemetryResource.application(instance: "pip")))
        #expect(main != pip)
        #expect(main != MachineAppSpecificID.derived(fromMachineID: machineID, application: MachineAppSpecificID.heartbeat))
        #expect(!main.contains("0123456789abcdef"))
        #expect(main == MachineAppSpecificID.derived(fromMachineID: machineID, application: TelemetryResource.application(instance: "default")))
    }
}
