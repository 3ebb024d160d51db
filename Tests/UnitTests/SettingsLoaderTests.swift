import Foundation
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct SettingsLoaderTests {
    @Test func flagsWinOverTheEnvironmentWhichWinsOverTheFile() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory + "/b.toml"
            try "metadata-interval = 3\nretention = 30\ndrain-timeout = 7\n".write(toFile: file, atomically: true, encoding: .utf8)
            let loaded = try SettingsLoader.load(
                flags: SettingsLayer(source: .flag, values: [.metadataInterval: .text("1")]),
                environment: ["BEACONCTL_CONFIG": file, "BEACONCTL_METADATA_INTERVAL": "2", "BEACONCTL_RETENTION": "20", "RUNTIME_DIRECTORY": directory])
            #expect(loaded.file == ConfigurationFile.Location(path: file, namedBy: "env BEACONCTL_CONFIG"))
            #expect(loaded.settings.metadataInterval == 1)
            #expect(loaded.settings.retention == 20)
            #expect(loaded.settings.drainTimeout == 7)
            #expect(loaded.settings.logLevel == .info)
            #expect(loaded.settings.socket == directory + "/control.sock")
            #expect(
                loaded.report == """
                    # configuration file: \(file)
                    # media-url is not set  # default
                    # tracking-url is not set  # default
                    socket = "\(directory)/control.sock"  # default
                    metadata-interval = 1  # flag --metadata-interval
                    retention = 20  # env BEACONCTL_RETENTION
                    drain-timeout = 7  # file \(file)
                    state-dir = "/var/lib/beaconctl"  # default
                    beacon-max-age = 900  # default
                    http-timeout = 10  # default
                    quiet = false  # default
                    log-level = "info"  # default
                    debug-tracking = false  # default
                    # metrics-address is not set  # default
                    # ifa is not set  # default
                    # ifa-type is not set  # default
                    limit-ad-tracking = false  # default
                    dialect = "auto"  # default
                    is-init-request = true  # default
                    sgai = false  # default
                    instance = "default"  # default
                    audit-max-age = 604800  # default
                    audit-max-size = 33554432  # default
                    # media-analytics.endpoint is not set  # default
                    # media-analytics.tracking-server is not set  # default
                    # media-analytics.report-suite is not set  # default
                    # media-analytics.org-id is not set  # default
                    # media-analytics.user-id is not set  # default
                    # media-analytics.channel is not set  # default
                    media-analytics.player-name = "beaconctl"  # default
                    media-analytics.ssl = true  # default
                    media-analytics.ping-interval = 10  # default
                    media-analytics.ad-ping-interval = 1  # default
                    # media-analytics.publisher is not set  # default
                    # media-analytics.job-id is not set  # default
                    # media-analytics.ovp is not set  # default
                    # media-analytics.sdk is not set  # default
                    media-analytics.quiet = false  # default
                    media-analytics.debug-logging = false  # default
                    media-analytics.privacy-default = "optin"  # default
                    media-analytics.offline-enabled = true  # default
                    # heartbeat.endpoint is not set  # default
                    # heartbeat.concurrency-endpoint is not set  # default
                    heartbeat.sync-interval = 60  # default
                    heartbeat.max-allowed-failures = 2  # default
                    heartbeat.record-bookmark = false  # default
                    heartbeat.multi-stream-mode = false  # default
                    heartbeat.playback-stop-on-playback-end = true  # default
                    heartbeat.post-slate-duration = 0  # default
                    heartbeat.track-viewers-count = false  # default
                    # heartbeat.device-id is not set  # default
                    # heartbeat.headers is not set  # default
                    # telemetry.endpoint is not set  # default
                    # telemetry.headers is not set  # default
                    telemetry.export-interval = 60  # default
                    telemetry.log-interval = 10  # default
                    telemetry.batch-size = 512  # default
                    # telemetry.resource-attributes is not set  # default
                    telemetry.compression = "gzip"  # default
                    """)
        }
    }

    @Test func withoutAFileOnlyTheDefaultPathIsTried() throws {
        var tried: [String] = []
        let loaded = try SettingsLoader.load(environment: [:]) { path in
            tried.append(path)
            return false
        }
        #expect(tried == [ConfigurationFile.defaultPath])
        #expect(loaded.file == nil)
        #expect(loaded.settings.sources.isEmpty)
    }

    @Test func aNamedFileThatIsMissingIsAnError() {
        #expect(throws: ConfigurationError(subject: "config (argument)", reason: "cannot read /nonexistent/b.toml: No such file or directory")) {
            try SettingsLoader.load(configFile: ("/nonexistent/b.toml", "argument"), environment: [:])
        }
    }
}
