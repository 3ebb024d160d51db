import Testing

@testable import BeaconDomain
@testable import BeaconRuntime

/// The `[media-analytics]` and `[heartbeat]` tables: read from the file, flags and variables,
/// validated, listed by `config check`, and left alone by a reload.
@Suite(.timeLimit(.minutes(2))) struct ReporterSettingsTests {
    static let file = SettingSource.file("/c.toml")

    func resolve(_ text: String, environment: [String: String] = [:]) throws(ConfigurationError) -> Settings {
        let layers = [try SettingsLayer.environment(environment), try ConfigurationFile.parse(text, path: "/c.toml")]
        return try Settings.resolve(layers, defaultSocket: "/s")
    }

    func refusal(_ text: String, environment: [String: String] = [:]) -> String? {
        configurationError { () throws(ConfigurationError) in try resolve(text, environment: environment) }
    }

    @Test func unsetTheReportersAreNotConfiguredAndKeepTheirDefaults() throws {
        let settings = try resolve("")
        #expect(settings.mediaAnalytics == MediaAnalyticsSettings())
        #expect(settings.heartbeat == HeartbeatSettings())
        #expect(!settings.mediaAnalytics.isConfigured && !settings.heartbeat.isConfigured)
    }

    @Test func everyKeyOfBothTablesIsReadFromTheFile() throws {
        let settings = try resolve(
            """
            quiet = true
            [media-analytics]
            endpoint = "https://collect.example.com"
            tracking-server = "example.sc.omtrdc.net"
            report-suite = "rsid"
            org-id = "ABC@AdobeOrg"
            user-id = "viewer 7"
            channel = "Sports"
            player-name = "Living room"
            ssl = false
            ping-interval = 5
            ad-ping-interval = 0.5
            [heartbeat]
            endpoint = "https://hb.example.com/beat"
            concurrency-endpoint = "http://hb.example.com/streams"
            sync-interval = 30
            max-allowed-failures = 3
            record-bookmark = true
            multi-stream-mode = true
            playback-stop-on-playback-end = false
            post-slate-duration = 0
            track-viewers-count = true
            device-id = "box-1"
            headers = { "X-Api-Key" = "k1", "X-Tenant" = "t" }
            """)
        var analytics = MediaAnalyticsSettings()
        analytics.endpoint = "https://collect.example.com"
        analytics.trackingServer = "example.sc.omtrdc.net"
        analytics.reportSuite = "rsid"
        analytics.orgID = "ABC@AdobeOrg"
        analytics.userID = "viewer 7"
        analytics.channel = "Sports"
        analytics.playerName = "Living room"
        analytics.ssl = false
        analytics.pingInterval = .seconds(5)
        analytics.adPingInterval = .milliseconds(500)
        #expect(settings.mediaAnalytics == analytics)
        var heartbeat = HeartbeatSettings()
        heartbeat.endpoint = "https://hb.example.com/beat"
        heartbeat.concurrencyEndpoint = "http://hb.example.com/streams"
        heartbeat.syncInterval = .seconds(30)
        heartbeat.maxAllowedFailures = 3
        heartbeat.recordBookmark = true
        heartbeat.multiStreamMode = true
        heartbeat.playbackStopOnPlaybackEnd = false
        heartbeat.postSlateDuration = .zero
        heartbeat.trackViewersCount = true
        heartbeat.deviceID = "box-1"
        heartbeat.headers = ["X-Api-Key": "k1", "X-Tenant": "t"]
        #expect(settings.heartbeat == heartbeat)
        #expect(settings.quiet)
        #expect(settings.source(of: .heartbeatHeaders) == Self.file)
    }

    /// Quickplay's and Adobe's configuration names, in their reporter's table, read as ours; the
    /// flags, variables and `config check` keep ours.
    @Test func theDocumentsOwnNamesAreReadInTheirReportersTable() throws {
        let keys: [SettingKey] = [
            .mediaAnalyticsTrackingServer, .mediaAnalyticsReportSuite, .mediaAnalyticsPlayerName, .heartbeatEndpoint, .heartbeatConcurrencyEndpoint,
            .heartbeatSyncInterval, .heartbeatMaxAllowedFailures, .heartbeatRecordBookmark, .heartbeatMultiStreamMode,
            .heartbeatPlaybackStopOnPlaybackEnd, .heartbeatPostSlateDuration, .heartbeatTrackViewersCount, .heartbeatDeviceID,
            .mediaAnalyticsSSL, .mediaAnalyticsJobID, .mediaAnalyticsQuiet, .mediaAnalyticsDebugLogging, .mediaAnalyticsPrivacyDefault,
            .mediaAnalyticsOfflineEnabled,
        ]
        let values: [SettingKey: String] = [
            .mediaAnalyticsTrackingServer: #""example.sc.omtrdc.net""#, .mediaAnalyticsReportSuite: #""rsid""#,
            .mediaAnalyticsPlayerName: #""Living room""#, .heartbeatEndpoint: #""https://hb.example.com/beat""#,
            .heartbeatConcurrencyEndpoint: #""http://hb.example.com/streams""#, .heartbeatSyncInterval: "30", .heartbeatMaxAllowedFailures: "3",
            .heartbeatRecordBookmark: "true", .heartbeatMultiStreamMode: "true", .heartbeatPlaybackStopOnPlaybackEnd: "false",
            .heartbeatPostSlateDuration: "5", .heartbeatTrackViewersCount: "true", .heartbeatDeviceID: #""box-1""#,
            .mediaAnalyticsSSL: "false", .mediaAnalyticsJobID: #""j2""#, .mediaAnalyticsQuiet: "true", .mediaAnalyticsDebugLogging: "true",
            .mediaAnalyticsPrivacyDefault: #""unknown""#, .mediaAnalyticsOfflineEnabled: "false",
        ]
        #expect(keys.allSatisfy { !$0.documentNames.isEmpty } && Set(values.keys) == Set(keys))
        func file(_ name: (SettingKey) -> String) -> String {
            [ReporterName.mediaAnalytics, .heartbeat].map { table in
                "[\(table.rawValue)]\n" + keys.filter { $0.table == table }.map { "\(name($0)) = \(values[$0]!)\n" }.joined()
            }.joined()
        }
        let ours = try resolve(file(\.nameInTable))
        let theirs = try resolve(file { $0.documentNames[0] })
        #expect(theirs.mediaAnalytics == ours.mediaAnalytics && theirs.heartbeat == ours.heartbeat)
        #expect(theirs.heartbeat.syncInterval == .seconds(30) && theirs.heartbeat.deviceID == "box-1" && theirs.mediaAnalytics.reportSuite == "rsid")
        let analytics = theirs.mediaAnalytics
        #expect(!analytics.ssl && analytics.jobID == "j2" && analytics.quiet && analytics.debugLogging)
        #expect(analytics.privacyDefault == .unknown && !analytics.offlineEnabled)
        #expect(theirs.source(of: .heartbeatSyncInterval) == Self.file)
        // Only in the reporter's table: at the top level a document's name is no key of ours.
        #expect(refusal("syncInterval = 30") == "syncInterval (file /c.toml): unknown key")
    }

    @Test func aTablesKeyMayAlsoBeWrittenAtTheTopLevelWithItsPrefix() throws {
        let settings = try resolve("heartbeat-endpoint = \"https://hb.test\"\nheartbeat-headers = { \"X-A\" = \"1\" }\n")
        #expect(settings.heartbeat.endpoint == "https://hb.test")
        #expect(settings.heartbeat.headers == ["X-A": "1"])
        #expect(refusal("retention = { a = \"1\" }") == "retention (file /c.toml): must be a number of seconds above 0 and at most a week")
    }

    @Test func flagsAndVariablesCarryTheTablesName() throws {
        #expect(SettingKey.mediaAnalyticsEndpoint.flag == "--media-analytics-endpoint")
        #expect(SettingKey.mediaAnalyticsEndpoint.environmentVariable == "BEACONCTL_MEDIA_ANALYTICS_ENDPOINT")
        #expect(SettingKey.heartbeatMaxAllowedFailures.environmentVariable == "BEACONCTL_HEARTBEAT_MAX_ALLOWED_FAILURES")
        #expect(SettingKey.heartbeatSyncInterval.qualifiedName == "heartbeat.sync-interval")
        #expect(SettingKey(table: .mediaAnalytics, name: "org-id") == .mediaAnalyticsOrgID)
        #expect(SettingKey(table: nil, name: "media-analytics-endpoint") == nil, "a table's key is not a top-level key")
        let settings = try resolve(
            "[heartbeat]\nsync-interval = 30\n",
            environment: [
                "BEACONCTL_HEARTBEAT_SYNC_INTERVAL": "15", "BEACONCTL_HEARTBEAT_HEADERS": "X-A: 1; X-B: two words",
                "BEACONCTL_MEDIA_ANALYTICS_SSL": "off",
            ])
        #expect(settings.heartbeat.syncInterval == .seconds(15))
        #expect(settings.source(of: .heartbeatSyncInterval) == .environment)
        #expect(settings.heartbeat.headers == ["X-A": "1", "X-B": "two words"])
        #expect(settings.mediaAnalytics.ssl == false)
    }

    @Test(arguments: [
        ("[media-analytics]\nendpoint = \"ftp://a.test\"", "media-analytics.endpoint (file /c.toml): scheme 'ftp' is not http or https"),
        ("[heartbeat]\nendpoint = 3", "heartbeat.endpoint (file /c.toml): must be an http or https URL in quotes"),
        ("[heartbeat]\nsync-interval = -1", "heartbeat.sync-interval (file /c.toml): must be a number of seconds above 0 and at most a week"),
        ("[heartbeat]\npost-slate-duration = -1", "heartbeat.post-slate-duration (file /c.toml): must be a number of seconds from 0 and at most a week"),
        ("[media-analytics]\nping-interval = 601", "media-analytics.ping-interval (file /c.toml): must be a number of seconds above 0 and at most 600"),
        ("[heartbeat]\nmax-allowed-failures = 0", "heartbeat.max-allowed-failures (file /c.toml): must be a whole number from 1 to 1000"),
        ("[heartbeat]\nmax-allowed-failures = 1.5", "heartbeat.max-allowed-failures (file /c.toml): must be a whole number from 1 to 1000"),
        ("[heartbeat]\nrecord-bookmark = \"maybe\"", "heartbeat.record-bookmark (file /c.toml): must be true or false"),
        ("[media-analytics]\nchannel = \"a\\nb\"", "media-analytics.channel (file /c.toml): must be at most 255 bytes of printable text, in quotes"),
        ("[heartbeat]\nheaders = { \"Bad Name\" = \"v\" }", "heartbeat.headers (file /c.toml): header name 'Bad Name' is not an HTTP token"),
        ("[heartbeat]\nheaders = { \"X-Heartbeat-Token\" = \"v\" }", "heartbeat.headers (file /c.toml): header X-Heartbeat-Token is set by the reporter"),
        ("[heartbeat]\nheaders = { \"X-A\" = 1 }", "heartbeat.headers (file /c.toml): header X-A must be a string"),
        ("[heartbeat]\nheaders = \"X-A\"", "heartbeat.headers (file /c.toml): must be 'Name: value' pairs separated by ';'"),
        ("[heartbeat]\ndevice-id = \"a b\"", "heartbeat.device-id (file /c.toml): must be at most 128 printable ASCII characters without spaces, in quotes"),
        ("[heartbeat]\nsync-intervall = 3", "heartbeat.sync-intervall (file /c.toml): unknown key (did you mean sync-interval?)"),
        ("[heartbeat]\nsyncIntervall = 3", "heartbeat.syncIntervall (file /c.toml): unknown key (did you mean syncInterval?)"),
        ("[heartbeat]\nsync-interval = 3\nsyncInterval = 4", "heartbeat.sync-interval (file /c.toml): set twice: as sync-interval in [heartbeat] and as syncInterval in [heartbeat]"),
        ("[beacons]\nquiet = true", "beacons (file /c.toml): unknown key"),
        (
            "heartbeat-sync-interval = 5\n[heartbeat]\nsync-interval = 6",
            "heartbeat.sync-interval (file /c.toml): set twice: as heartbeat-sync-interval and as sync-interval in [heartbeat]"
        ),
        ("[heartbeat]\nheaders = { \"X-A\" = { b = \"1\" } }", "heartbeat.headers (file /c.toml): header X-A must be a string"),
        ("quiet = { a = 1 }", "quiet (file /c.toml): must be true or false"),
    ])
    func anInvalidValueNamesItsKeyAndSource(text: String, expected: String) {
        #expect(refusal(text) == expected)
    }

    @Test func anInvalidVariableNamesItsVariable() {
        #expect(
            refusal("", environment: ["BEACONCTL_HEARTBEAT_ENDPOINT": "file:///etc/passwd"])
                == "heartbeat.endpoint (env BEACONCTL_HEARTBEAT_ENDPOINT): scheme 'file' is not http or https")
    }

    @Test func configCheckListsEveryKeyOfTheTablesAsDottedKeysItReadsBack() throws {
        let settings = try resolve(
            "[media-analytics]\nendpoint = \"https://c.test\"\n[heartbeat]\nheaders = { \"X-A\" = \"1\" }\nsync-interval = 0.25\n")
        let report = SettingsLoader.Loaded(settings: settings, file: .init(path: "/c.toml", namedBy: "argument")).report
        let lines = report.split(separator: "\n").map(String.init)
        #expect(lines.contains("media-analytics.endpoint = \"https://c.test\"  # file /c.toml"))
        #expect(lines.contains("media-analytics.ping-interval = 10  # default"))
        #expect(lines.contains("# media-analytics.user-id is not set  # default"))
        // A header's value may be an API key: masked, its name kept.
        #expect(lines.contains("heartbeat.headers = { \"X-A\" = \"***\" }  # file /c.toml"))
        #expect(!report.contains("\"1\""))
        #expect(lines.contains("heartbeat.sync-interval = 0.25  # file /c.toml"))
        #expect(lines.contains("heartbeat.max-allowed-failures = 2  # default"))
        #expect(lines.count == 1 + SettingKey.allCases.count)
        // The output is itself a config file that gives the same settings, but for the masked values.
        let reread = try Settings.resolve([try ConfigurationFile.parse(report, path: "/c.toml")], defaultSocket: "/s")
        #expect(reread.mediaAnalytics == settings.mediaAnalytics)
        var unmasked = reread.heartbeat
        unmasked.headers = ["X-A": "1"]
        #expect(unmasked == settings.heartbeat)
    }

    @Test func aReloadNamesAChangedReporterSettingAsNeedingARestart() throws {
        let running = try resolve("[heartbeat]\nendpoint = \"https://a.test\"\n")
        let reloaded = try resolve("quiet = true\n[heartbeat]\nendpoint = \"https://b.test\"\n")
        let reload = SettingsReload(running: running, reloaded: reloaded)
        #expect(reload.needRestart == [.heartbeatEndpoint])
        #expect(reload.settings.heartbeat.endpoint == "https://a.test")
        #expect(reload.changed == ["quiet false -> true"])
    }
}
