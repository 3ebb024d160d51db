import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// `ifa`, `ifa-type` and `limit-ad-tracking`: settings like the others (flag, environment, file),
/// validated, listed by `config check`, handed to the macros with the `User-Agent` beaconctl sends.
@Suite(.timeLimit(.minutes(2))) struct MacroSettingsTests {
    static let file = SettingSource.file("/etc/b.toml")

    func resolve(_ values: [SettingKey: SettingValue], from source: SettingSource = .environment) throws(ConfigurationError) -> Settings {
        try Settings.resolve([SettingsLayer(source: source, values: values)], defaultSocket: "/run/test/control.sock")
    }

    @Test func emptyAndOffByDefault() throws {
        let macros = try resolve([:]).daemonConfiguration(version: "9.9.9").macros
        #expect(macros == MacroSettings(deviceUserAgent: "beaconctl/9.9.9"))
        #expect(macros.deviceUserAgent == Settings.userAgent(version: "9.9.9"), "[DEVICEUA] is the User-Agent of run's requests")
    }

    @Test func takenFromTheEnvironmentAndTheFile() throws {
        #expect(SettingKey.ifa.environmentVariable == "BEACONCTL_IFA")
        #expect(SettingKey.ifaType.environmentVariable == "BEACONCTL_IFA_TYPE")
        #expect(SettingKey.limitAdTracking.environmentVariable == "BEACONCTL_LIMIT_AD_TRACKING")
        let settings = try resolve([
            .ifa: .text("6D92078A-8246-4BA4-AE5B-76104861E7DC"), .ifaType: .text("rida"), .limitAdTracking: .text("yes"),
        ])
        #expect(
            settings.daemonConfiguration(version: "1").macros
                == MacroSettings(
                    deviceUserAgent: "beaconctl/1", ifa: "6D92078A-8246-4BA4-AE5B-76104861E7DC", ifaType: "rida", limitAdTracking: true))
        let fromFile = try resolve([.ifaType: .text("aaid"), .limitAdTracking: .boolean(false)], from: Self.file)
        #expect(fromFile.ifaType == "aaid" && !fromFile.limitAdTracking)
        #expect(fromFile.tomlValue(of: .ifaType) == "\"aaid\"")
        #expect(fromFile.tomlValue(of: .ifa) == nil, "unset: commented out by config check")
        #expect(fromFile.tomlValue(of: .limitAdTracking) == "false")
    }

    @Test(arguments: [
        (SettingKey.ifa, SettingValue.text("has space")), (.ifa, .text(String(repeating: "a", count: 129))), (.ifa, .number(3)),
        (.ifaType, .text("rida\n")), (.ifaType, .text(String(repeating: "t", count: 33))), (.limitAdTracking, .text("maybe")),
    ])
    func aBadValueIsRefusedNamingTheKey(key: SettingKey, value: SettingValue) {
        let refusal = configurationError { () throws(ConfigurationError) in try resolve([key: value]) }
        #expect(refusal?.contains(key.rawValue) == true, "\(String(describing: refusal))")
    }

    /// A reload never logs an identifier: these need a restart, and a restart is named without values.
    @Test func aChangedIdentifierIsNamedForARestartWithoutItsValue() throws {
        let running = try resolve([.ifa: .text("OLD-IFA-VALUE")])
        let reload = SettingsReload(running: running, reloaded: try resolve([.ifa: .text("NEW-IFA-VALUE")]))
        #expect(reload.needRestart == [.ifa])
        #expect(!reload.changed.joined().contains("IFA-VALUE"))
        #expect(reload.settings.ifa == "OLD-IFA-VALUE")
    }
}
