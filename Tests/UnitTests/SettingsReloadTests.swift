import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct SettingsReloadTests {
    static func settings(_ values: [SettingKey: SettingValue]) throws -> Settings {
        try Settings.resolve([SettingsLayer(source: .file("/etc/b.toml"), values: values)], defaultSocket: "/run/b.sock", defaultStateDir: "/var/lib/b")
    }

    @Test func whatMayChangeAtRunTimeTakesItsNewValue() throws {
        let running = try Self.settings([.logLevel: .text("info"), .metadataInterval: .number(2)])
        let reloaded = try Self.settings([
            .logLevel: .text("debug"), .metadataInterval: .number(5), .debugTracking: .boolean(true), .quiet: .boolean(true),
            .retention: .number(60), .beaconMaxAge: .number(30),
        ])
        let reload = SettingsReload(running: running, reloaded: reloaded)
        #expect(reload.settings == reloaded)
        #expect(
            reload.changed == [
                "metadata-interval 2 -> 5", "retention 7200 -> 60", "beacon-max-age 900 -> 30", "quiet false -> true",
                "log-level \"info\" -> \"debug\"", "debug-tracking false -> true",
            ])
        #expect(reload.needRestart.isEmpty)
    }

    @Test func whatNeedsARestartKeepsItsRunningValueAndIsNamedWithoutItsValue() throws {
        let running = try Self.settings([.httpTimeout: .number(10)])
        let reloaded = try Self.settings([
            .httpTimeout: .number(20), .mediaURL: .text("https://ads.example/master.m3u8?token=secret"), .logLevel: .text("warning"),
        ])
        let reload = SettingsReload(running: running, reloaded: reloaded)
        #expect(reload.settings.httpTimeout == 10)
        #expect(reload.settings.mediaURL == nil)
        #expect(reload.settings.logLevel == .warning)
        #expect(reload.needRestart == [.mediaURL, .httpTimeout])
        #expect(reload.changed == ["log-level \"info\" -> \"warning\""])
        // Named again at the next reload, until a restart.
        #expect(SettingsReload(running: reload.settings, reloaded: reloaded).needRestart == [.mediaURL, .httpTimeout])
    }

    @Test func theSameFileChangesNothing() throws {
        let running = try Self.settings([.retention: .number(60)])
        let reload = SettingsReload(running: running, reloaded: running)
        #expect(reload.changed.isEmpty)
        #expect(reload.needRestart.isEmpty)
        #expect(reload.settings == running)
    }
}
