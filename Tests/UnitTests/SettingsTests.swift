import Logging
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct SettingsTests {
    let defaultSocket = "/run/test/control.sock"

    func resolve(_ layers: [SettingsLayer]) throws(ConfigurationError) -> Settings {
        try Settings.resolve(layers, defaultSocket: defaultSocket)
    }

    func refusal(_ layers: [SettingsLayer]) -> String? {
        configurationError { () throws(ConfigurationError) in try resolve(layers) }
    }

    static let file = SettingSource.file("/etc/b.toml")

    @Test func withNoLayerEveryKeyHasItsDefault() throws {
        let settings = try resolve([])
        #expect(settings.mediaURL == nil)
        #expect(settings.trackingURL == nil)
        #expect(settings.socket == defaultSocket)
        #expect(settings.metadataInterval == 2)
        #expect(settings.retention == 7200)
        #expect(settings.drainTimeout == 5)
        #expect(settings.quiet == false)
        #expect(settings.logLevel == .info)
        #expect(settings.debugTracking == false)
        #expect(settings.metricsAddress == nil)
        for key in SettingKey.allCases { #expect(settings.source(of: key) == .defaultValue, "\(key)") }
    }

    @Test(arguments: [
        ([SettingSource.flag, .environment, file], SettingSource.flag),
        ([.environment, file], .environment),
        ([file, .environment], .environment),
        ([file], file),
        ([file, .flag], .flag),
    ])
    func theHighestPrecedenceSourceWinsForEachKey(sources: [SettingSource], winner: SettingSource) throws {
        let value: [SettingSource: String] = [.flag: "11", .environment: "22", Self.file: "33"]
        let layers = sources.map { SettingsLayer(source: $0, values: [.retention: .text(value[$0]!)]) }
        let settings = try resolve(layers)
        #expect(settings.retention == Double(value[winner]!))
        #expect(settings.source(of: .retention) == winner)
        #expect(settings.source(of: .drainTimeout) == .defaultValue)
    }

    @Test func keysMergeIndependently() throws {
        let settings = try resolve([
            SettingsLayer(source: Self.file, values: [.metadataInterval: .number(3), .retention: .number(60), .quiet: .boolean(true)]),
            SettingsLayer(source: .environment, values: [.retention: .text("90"), .logLevel: .text("debug")]),
            SettingsLayer(source: .flag, values: [.quiet: .boolean(false)]),
        ])
        #expect(settings.metadataInterval == 3)
        #expect(settings.source(of: .metadataInterval) == Self.file)
        #expect(settings.retention == 90)
        #expect(settings.source(of: .retention) == .environment)
        #expect(settings.quiet == false)
        #expect(settings.source(of: .quiet) == .flag)
        #expect(settings.logLevel == .debug)
        #expect(settings.drainTimeout == 5)
    }

    @Test(arguments: [SettingKey.metadataInterval, .retention, .drainTimeout])
    func secondsMustBeAboveZeroAndAtMostAWeek(key: SettingKey) throws {
        for good in [SettingValue.number(0.001), .number(604_800), .text("1.5"), .text("1e2")] {
            #expect(refusal([SettingsLayer(source: .flag, values: [key: good])]) == nil, "\(good)")
        }
        for bad in [
            SettingValue.number(0), .number(-1), .number(604_800.5), .number(.infinity), .number(.nan), .text("nan"), .text("inf"),
            .text("2s"), .text(""), .text(" 2"), .boolean(true), .unsupported("array"),
        ] {
            #expect(
                refusal([SettingsLayer(source: Self.file, values: [key: bad])])
                    == "\(key.rawValue) (file /etc/b.toml): must be a number of seconds above 0 and at most a week", "\(bad)")
        }
    }

    @Test func theHTTPTimeoutIsAtMostFiveMinutes() throws {
        for good in [SettingValue.number(0.5), .number(300), .text("30")] {
            #expect(refusal([SettingsLayer(source: .flag, values: [.httpTimeout: good])]) == nil, "\(good)")
        }
        for bad in [SettingValue.number(0), .number(300.5), .number(.nan), .text("10s"), .boolean(true)] {
            #expect(
                refusal([SettingsLayer(source: Self.file, values: [.httpTimeout: bad])])
                    == "http-timeout (file /etc/b.toml): must be a number of seconds above 0 and at most 300", "\(bad)")
        }
    }

    @Test func theDialectIsHarmonicMediaTailorOrAuto() throws {
        #expect(try resolve([]).dialect == nil)
        #expect(try resolve([]).tomlValue(of: .dialect) == "\"auto\"")
        for (text, dialect) in [("harmonic", Dialect.harmonic), ("MediaTailor", .mediatailor), ("auto", nil)] as [(String, Dialect?)] {
            let settings = try resolve([SettingsLayer(source: Self.file, values: [.dialect: .text(text)])])
            #expect(settings.dialect == dialect, "\(text)")
            #expect(settings.daemonConfiguration(version: "t").dialect == dialect)
        }
        #expect(SettingKey.dialect.environmentVariable == "BEACONCTL_DIALECT")
        for bad in [SettingValue.text("aws"), .number(1), .boolean(true)] {
            #expect(
                refusal([SettingsLayer(source: .flag, values: [.dialect: bad])]) == "dialect (flag --dialect): must be harmonic, mediatailor or auto",
                "\(bad)")
        }
    }

    @Test func theHTTPClientTakesTheTimeoutAndConnectsWithinFiveSecondsOfIt() throws {
        let standard = try resolve([]).httpClientConfiguration(userAgent: "beaconctl/x")
        #expect(standard.totalTimeout == .seconds(10))
        #expect(standard.connectTimeout == .seconds(5))
        #expect(standard.userAgent == "beaconctl/x")
        let short = try resolve([SettingsLayer(source: .environment, values: [.httpTimeout: .text("1.5")])]).httpClientConfiguration(userAgent: "b")
        #expect(short.totalTimeout == .milliseconds(1500))
        #expect(short.connectTimeout == .milliseconds(1500))
    }

    @Test func secondsKeepSubMillisecondPrecisionInTheDaemonConfiguration() throws {
        let settings = try resolve([SettingsLayer(source: .flag, values: [.metadataInterval: .text("0.0005"), .drainTimeout: .text("1.25")])])
        let configuration = settings.daemonConfiguration(version: "v")
        #expect(configuration.metadataInterval == .microseconds(500))
        #expect(configuration.drainTimeout == .milliseconds(1250))
        #expect(configuration.retention == .seconds(7200))
        #expect(configuration.version == "v")
    }

    @Test func theDaemonConfigurationCarriesEverySetting() throws {
        let settings = try resolve([
            SettingsLayer(
                source: .flag,
                values: [
                    .mediaURL: .text("http://a.test/m.m3u8"), .trackingURL: .text("http://a.test/meta"), .quiet: .boolean(true),
                    .debugTracking: .boolean(true), .retention: .number(30),
                ])
        ])
        let configuration = settings.daemonConfiguration(version: "v")
        #expect(configuration.mediaURL == "http://a.test/m.m3u8")
        #expect(configuration.trackingURL == "http://a.test/meta")
        #expect(configuration.quiet)
        #expect(configuration.debugTracking)
        #expect(configuration.retention == .seconds(30))
    }

    @Test(arguments: [SettingKey.mediaURL, .trackingURL])
    func urlsMustBeHTTPOrHTTPS(key: SettingKey) {
        let media: [SettingKey: SettingValue] = key == .trackingURL ? [.mediaURL: .text("https://a.test/m")] : [:]
        func check(_ value: SettingValue) -> String? {
            refusal([SettingsLayer(source: .environment, values: media.merging([key: value]) { $1 })])
        }
        #expect(check(.text("https://a.test/x?sessid=1")) == nil)
        #expect(check(.text("ftp://a.test/x")) == "\(key.rawValue) (env \(key.environmentVariable)): scheme 'ftp' is not http or https")
        #expect(check(.text("http://")) == "\(key.rawValue) (env \(key.environmentVariable)): URL has no host")
        #expect(check(.number(1)) == "\(key.rawValue) (env \(key.environmentVariable)): must be an http or https URL in quotes")
    }

    @Test func aTrackingURLNeedsAMediaURLFromAnySource() {
        let tracking = SettingsLayer(source: Self.file, values: [.trackingURL: .text("http://a.test/meta")])
        #expect(refusal([tracking]) == "tracking-url (file /etc/b.toml): needs media-url (the stream the player plays)")
        #expect(refusal([tracking, SettingsLayer(source: .flag, values: [.mediaURL: .text("http://a.test/m")])]) == nil)
    }

    @Test func booleansAcceptTheUsualWords() throws {
        for (text, value) in [("true", true), ("YES", true), ("on", true), ("1", true), ("false", false), ("No", false), ("off", false), ("0", false)] {
            let settings = try resolve([SettingsLayer(source: .environment, values: [.quiet: .text(text), .debugTracking: .text(text)])])
            #expect(settings.quiet == value, "\(text)")
            #expect(settings.debugTracking == value, "\(text)")
        }
        for bad in [SettingValue.text("maybe"), .text(""), .number(1)] {
            #expect(refusal([SettingsLayer(source: Self.file, values: [.debugTracking: bad])]) == "debug-tracking (file /etc/b.toml): must be true or false")
        }
    }

    @Test func logLevelIsOneOfTheSevenLevels() throws {
        for level in Logger.Level.allCases {
            let settings = try resolve([SettingsLayer(source: .flag, values: [.logLevel: .text(level.rawValue.uppercased())])])
            #expect(settings.logLevel == level)
        }
        for bad in [SettingValue.text("verbose"), .text("warn"), .number(3)] {
            #expect(
                refusal([SettingsLayer(source: .flag, values: [.logLevel: bad])])
                    == "log-level (flag --log-level): must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    @Test func debugLoggingIsDebugOrTraceOrDebugTracking() throws {
        func isDebug(_ values: [SettingKey: SettingValue]) throws -> Bool {
            try resolve([SettingsLayer(source: .flag, values: values)]).isDebugLogging
        }
        #expect(try !isDebug([:]))
        #expect(try !isDebug([.logLevel: .text("notice")]))
        #expect(try isDebug([.logLevel: .text("debug")]))
        #expect(try isDebug([.logLevel: .text("trace")]))
        #expect(try isDebug([.logLevel: .text("error"), .debugTracking: .boolean(true)]))
    }

    @Test func socketIsAPathThatFitsASocketAddress() throws {
        #expect(try resolve([SettingsLayer(source: .flag, values: [.socket: .text("/tmp/s.sock")])]).socket == "/tmp/s.sock")
        let long = "/" + String(repeating: "a", count: UnixSocketPath.maxPathBytes)
        for bad in [SettingValue.text(""), .text(long), .boolean(true)] {
            #expect(refusal([SettingsLayer(source: .flag, values: [.socket: bad])])?.hasPrefix("socket (flag --socket): must be a path") == true)
        }
    }

    @Test func metricsAddressIsParsedAndAFileMayGiveABarePortAsANumber() throws {
        let fromText = try resolve([SettingsLayer(source: .environment, values: [.metricsAddress: .text("0.0.0.0:9100")])])
        #expect(fromText.metricsAddress == (try MetricsAddress(parsing: "0.0.0.0:9100")))
        let fromNumber = try resolve([SettingsLayer(source: Self.file, values: [.metricsAddress: .number(9100)])])
        #expect(fromNumber.metricsAddress == (try MetricsAddress(parsing: "127.0.0.1:9100")))
        #expect(
            refusal([SettingsLayer(source: Self.file, values: [.metricsAddress: .number(91.5)])])
                == "metrics-address (file /etc/b.toml): expected PORT or HOST:PORT")
        #expect(
            refusal([SettingsLayer(source: .environment, values: [.metricsAddress: .text("bad host:1")])])
                == "metrics-address (env BEACONCTL_METRICS_ADDRESS): the host must be an IP address or localhost")
    }

    @Test func theEnvironmentLayerReadsOnlyBeaconctlVariables() throws {
        let layer = try SettingsLayer.environment([
            "BEACONCTL_METADATA_INTERVAL": "4", "BEACONCTL_QUIET": "", "BEACONCTL_CONFIG": "/x.toml", "PATH": "/bin", "beaconctl_retention": "1",
        ])
        #expect(layer.source == .environment)
        #expect(layer.values == [.metadataInterval: .text("4")])
    }

    @Test func anUnknownBeaconctlVariableIsAnError() {
        #expect(throws: ConfigurationError(subject: "env BEACONCTL_METADATA_INTERVALL", reason: "unknown variable")) {
            try SettingsLayer.environment(["BEACONCTL_METADATA_INTERVALL": "4"])
        }
    }

    @Test func keysNameTheirFlagAndVariable() {
        #expect(SettingKey.metadataInterval.flag == "--metadata-interval")
        #expect(SettingKey.metadataInterval.environmentVariable == "BEACONCTL_METADATA_INTERVAL")
        for key in SettingKey.allCases { #expect(SettingKey(environmentVariable: key.environmentVariable) == key) }
        #expect(SettingKey(environmentVariable: "BEACONCTL_CONFIG") == nil)
    }

    @Test func errorsAreOneLine() {
        let error = ConfigurationError(subject: "file x line 1 column 2", reason: "bad\nthing\r\nhere")
        #expect(error.description == "file x line 1 column 2: bad thing here")
    }

    @Test func everySettingRendersAsTOMLThatReadsBackTheSame() throws {
        let settings = try resolve([
            SettingsLayer(
                source: .flag,
                values: [
                    .mediaURL: .text("http://a.test/m.m3u8?a=\"q\"&b=\\"), .trackingURL: .text("http://a.test/meta"),
                    .socket: .text("/tmp/x y.sock"), .metadataInterval: .text("0.25"), .retention: .text("1e-05"),
                    .drainTimeout: .text("7"), .quiet: .boolean(true), .logLevel: .text("notice"), .debugTracking: .boolean(true),
                    .metricsAddress: .text("[::1]:9100"), .ifa: .text("6D92078A-8246-4BA4-AE5B-76104861E7DC"), .ifaType: .text("rida"),
                    .limitAdTracking: .boolean(true), .sgai: .boolean(true), .mediaAnalyticsEndpoint: .text("https://c.test/"),
                    .mediaAnalyticsTrackingServer: .text("t.test"), .mediaAnalyticsReportSuite: .text("rs"), .mediaAnalyticsOrgID: .text("o@AdobeOrg"),
                    .mediaAnalyticsUserID: .text("u \"1\""), .mediaAnalyticsChannel: .text("c"), .mediaAnalyticsSSL: .boolean(false),
                    .mediaAnalyticsPingInterval: .text("2.5"), .mediaAnalyticsPublisher: .text("P \"1\""), .mediaAnalyticsJobID: .text("j2"),
                    .mediaAnalyticsOVP: .text("ovp"), .mediaAnalyticsSDK: .text("sdk 1"), .mediaAnalyticsQuiet: .boolean(true),
                    .mediaAnalyticsDebugLogging: .boolean(true), .mediaAnalyticsPrivacyDefault: .text("unknown"),
                    .mediaAnalyticsOfflineEnabled: .boolean(false), .heartbeatEndpoint: .text("http://h.test"),
                    .heartbeatConcurrencyEndpoint: .text("http://h.test/c"), .heartbeatSyncInterval: .text("0.5"),
                    .heartbeatMaxAllowedFailures: .text("4"), .heartbeatPostSlateDuration: .text("1.5"), .heartbeatDeviceID: .text("d1"),
                    .heartbeatHeaders: .text("X-A: 1; X-B: \"q\""), .instance: .text("pip"), .auditMaxAge: .text("3600.5"),
                    .auditMaxSize: .text("2MiB"), .telemetryEndpoint: .text("http://o.test:4318"), .telemetryHeaders: .text("K: \"v\""),
                    .telemetryExportInterval: .text("1.5"), .telemetryLogInterval: .text("3"), .telemetryBatchSize: .text("9"),
                    .telemetryResourceAttributes: .text("a.b=\"c\""), .telemetryCompression: .text("none"),
                ])
        ])
        let toml = SettingKey.allCases.map { "\($0.rawValue) = \(settings.tomlValue(of: $0)!)" }.joined(separator: "\n")
        var reread = try resolve([try ConfigurationFile.parse(toml, path: "/r.toml")])
        #expect(reread.sources.values.allSatisfy { $0 == .file("/r.toml") })
        reread.sources = settings.sources
        #expect(reread == settings, "\(toml)")
    }

    /// `sgai`: off unless a flag, the environment or the file turns it on; a boolean like the others.
    @Test func sgaiIsOffByDefaultAndABoolean() throws {
        #expect(try resolve([]).sgai == false)
        #expect(try resolve([]).tomlValue(of: .sgai) == "false")
        #expect(SettingKey.sgai.environmentVariable == "BEACONCTL_SGAI")
        #expect(SettingKey.sgai.flag == "--sgai")
        #expect(SettingKey.sgai.table == nil)
        #expect(try resolve([SettingsLayer(source: .environment, values: [.sgai: .text("true")])]).sgai)
        let overridden = try resolve([
            SettingsLayer(source: Self.file, values: [.sgai: .boolean(true)]), SettingsLayer(source: .flag, values: [.sgai: .boolean(false)]),
        ])
        #expect(overridden.sgai == false)
        #expect(overridden.source(of: .sgai) == .flag)
        #expect(refusal([SettingsLayer(source: Self.file, values: [.sgai: .number(1)])])?.hasPrefix("sgai (file /etc/b.toml): ") == true)
    }
}
