import Foundation
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct ConfigurationFileTests {
    func parseError(_ text: String) -> String? {
        configurationError { () throws(ConfigurationError) in try ConfigurationFile.parse(text, path: "/c.toml") }
    }

    @Test func readsTypedValuesOfKnownKeys() throws {
        let layer = try ConfigurationFile.parse(
            """
            # a comment
            media-url = "https://a.test/m.m3u8"
            metadata-interval = 3
            retention = 1.5
            quiet = true
            log-level = 'debug'
            metrics-address = 9100
            """, path: "/c.toml")
        #expect(layer.source == .file("/c.toml"))
        #expect(
            layer.values == [
                .mediaURL: .text("https://a.test/m.m3u8"), .metadataInterval: .number(3), .retention: .number(1.5), .quiet: .boolean(true),
                .logLevel: .text("debug"), .metricsAddress: .number(9100),
            ])
    }

    @Test func anEmptyFileGivesNothing() throws {
        #expect(try ConfigurationFile.parse("", path: "/c.toml").values.isEmpty)
    }

    @Test func anUnknownKeyOrTableIsAnError() {
        #expect(parseError("metadata-intervall = 2") == "metadata-intervall (file /c.toml): unknown key (did you mean metadata-interval?)")
        #expect(parseError("metadata_interval = 2") == "metadata_interval (file /c.toml): unknown key (did you mean metadata-interval?)")
        #expect(parseError("[daemon]\nretention = 2") == "daemon (file /c.toml): unknown key")
    }

    @Test func valuesOfOtherTOMLTypesReachValidationAsUnsupported() throws {
        let layer = try ConfigurationFile.parse("retention = [1]\nquiet = 1979-05-27\nsocket = { a = 1 }", path: "/c.toml")
        #expect(layer.values == [.retention: .unsupported("array"), .quiet: .unsupported("date"), .socket: .unsupported("table")])
        #expect(throws: ConfigurationError(key: .socket, source: .file("/c.toml"), reason: "must be a path in quotes")) {
            try Settings.resolve([layer], defaultSocket: "/s")
        }
    }

    @Test func malformedTOMLIsAnErrorAtItsLineAndColumn() {
        #expect(parseError("quiet = true\nretention = = 2")?.hasPrefix("file /c.toml line 2 column 13: ") == true)
        #expect(parseError("retention = 1\nretention = 2")?.hasPrefix("file /c.toml line 2 column ") == true)
        #expect(parseError("media-url = \"unterminated\n")?.hasPrefix("file /c.toml line 1 column ") == true)
        #expect(parseError("quiet = yes")?.hasPrefix("file /c.toml line 1 column ") == true)
    }

    @Test func locatesTheNamedFileElseTheVariableElseTheDefaultWhenItExists() {
        let environment = ["BEACONCTL_CONFIG": "/env.toml"]
        #expect(
            ConfigurationFile.locate(explicit: ("/flag.toml", "flag --config"), environment: environment, exists: { _ in false })
                == ConfigurationFile.Location(path: "/flag.toml", namedBy: "flag --config"))
        #expect(
            ConfigurationFile.locate(explicit: nil, environment: environment, exists: { _ in false })
                == ConfigurationFile.Location(path: "/env.toml", namedBy: "env BEACONCTL_CONFIG"))
        #expect(
            ConfigurationFile.locate(explicit: nil, environment: ["BEACONCTL_CONFIG": ""], exists: { $0 == ConfigurationFile.defaultPath })
                == ConfigurationFile.Location(path: "/etc/beaconctl/beaconctl.toml", namedBy: "default"))
        #expect(ConfigurationFile.locate(explicit: nil, environment: [:], exists: { _ in false }) == nil)
    }

    @Test func readsAFileAndRefusesWhatItCannotRead() async throws {
        try await withTemporaryDirectory { directory in
            let good = directory + "/good.toml"
            try "drain-timeout = 9\n".write(toFile: good, atomically: true, encoding: .utf8)
            #expect(try ConfigurationFile.load(.init(path: good, namedBy: "argument")).values == [.drainTimeout: .number(9)])

            func loadError(_ path: String) -> String? {
                configurationError { () throws(ConfigurationError) in try ConfigurationFile.load(.init(path: path, namedBy: "flag --config")) }
            }
            #expect(loadError(directory + "/none.toml") == "config (flag --config): cannot read \(directory)/none.toml: No such file or directory")
            #expect(loadError(directory) == "config (flag --config): cannot read \(directory): Is a directory")
            let binary = directory + "/binary.toml"
            try Data([0x71, 0x3D, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: binary))
            #expect(loadError(binary) == "config (flag --config): cannot read \(binary): not UTF-8 text")
            let huge = directory + "/huge.toml"
            try Data(repeating: 0x23, count: ConfigurationFile.maxBytes + 1).write(to: URL(fileURLWithPath: huge))
            #expect(loadError(huge) == "config (flag --config): cannot read \(huge): larger than 1 MiB")
        }
    }

    static let shippedFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/beaconctl.toml").path

    @Test func theShippedFileIsValidAndChangesNothing() throws {
        let layer = try ConfigurationFile.load(.init(path: Self.shippedFile, namedBy: "argument"))
        #expect(layer.values.isEmpty)
    }

    /// Each key is documented, commented out, with its default (or, for keys unset by default, an example that is valid).
    @Test func theShippedFileDocumentsEveryKeyWithItsDefault() throws {
        let text = try String(contentsOfFile: Self.shippedFile, encoding: .utf8)
        var uncommented: [String] = []
        for key in SettingKey.allCases {
            let lines = text.split(separator: "\n").filter { $0.hasPrefix("# \(key.rawValue) = ") }
            #expect(lines.count == 1, "\(key)")
            uncommented += lines.map { String($0.dropFirst(2)) }
        }
        let settings = try Settings.resolve(
            [try ConfigurationFile.parse(uncommented.joined(separator: "\n"), path: "/shipped")], defaultSocket: "/run/beaconctl/control.sock")
        let defaults = Settings(defaultSocket: "/run/beaconctl/control.sock")
        for key in SettingKey.allCases where defaults.tomlValue(of: key) != nil {
            #expect(settings.tomlValue(of: key) == defaults.tomlValue(of: key), "\(key)")
        }
    }
}
