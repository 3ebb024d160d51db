import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `beaconctl config ...`: the configuration of `beaconctl run`.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the configuration of 'beaconctl run'.",
        subcommands: [ConfigCheckCommand.self]
    )
}

struct ConfigCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config file with the environment and print the effective settings.",
        discussion: """
            Reads FILE, else $BEACONCTL_CONFIG, else /etc/beaconctl/beaconctl.toml when it exists, and the \
            BEACONCTL_<KEY> environment variables, as 'beaconctl run' would, and prints each setting in TOML \
            with where it came from (default, file, env). Exits 0 when valid, 78 (EX_CONFIG) with one line \
            naming the bad key when not.
            """
    )

    @Argument(help: ArgumentHelp("The TOML config file to check.", valueName: "file"))
    var file: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let loaded: SettingsLoader.Loaded
        do {
            loaded = try SettingsLoader.load(configFile: file.map { ($0, "argument") }, environment: environment)
        } catch {
            throw InvalidConfiguration.report(error, style: LineLogHandler.Style(environment: environment))
        }
        StandardOutput.writeLine(loaded.report)
    }
}
