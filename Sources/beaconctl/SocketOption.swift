import ArgumentParser
import BeaconCore

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
            discussion: "Default: $RUNTIME_DIRECTORY/control.sock under systemd, else /run/beaconctl/control.sock for root (the systemd service's), else $XDG_RUNTIME_DIR/beaconctl/control.sock, else /tmp/beaconctl-<uid>/control.sock.",
            valueName: "path"))
    var socket: String?

    var path: String {
        socket ?? ControlSocketPath.standard(environment: ProcessInfo.processInfo.environment)
    }
}
