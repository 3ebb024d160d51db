import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `--socket` option shared by every command that talks to the daemon.
struct SocketOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Path of the daemon's control socket.",
            discussion: "Default: $BEACONCTL_SOCKET, else 'socket' in the config file, else $RUNTIME_DIRECTORY/control.sock under systemd, else /run/beaconctl/control.sock for root (the systemd service's), else $XDG_RUNTIME_DIR/beaconctl/control.sock, else /tmp/beaconctl-<uid>/control.sock.",
            valueName: "path"))
    var socket: String?

    /// The flag, else where `beaconctl run` would listen with the same environment and config file.
    /// A configuration `run` would refuse falls back to the standard path: no daemon started with it.
    var path: String {
        let environment = ProcessInfo.processInfo.environment
        return socket ?? (try? SettingsLoader.load(environment: environment))?.settings.socket ?? ControlSocketPath.standard(environment: environment)
    }
}
