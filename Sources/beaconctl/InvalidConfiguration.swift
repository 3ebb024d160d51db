import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal

/// How a bad configuration ends a command: one line on stderr naming the key, exit status 78.
enum InvalidConfiguration {
    /// Prints `error` and returns the exit to throw. Under journald the line is marked as an error.
    static func report(_ error: ConfigurationError, style: LineLogHandler.Style) -> ExitCode {
        let priority = style == .journald ? "<3>" : ""
        StandardOutput.writeError("\(priority)beaconctl: invalid configuration: \(error)")
        return ExitCode(ConfigurationError.exitStatus)
    }
}
