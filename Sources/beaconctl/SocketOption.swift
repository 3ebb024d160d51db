import ArgumentParser
import BeaconCore

#if canImport(Glibc)
import Glibc
#endif

/// The `--socket` option shared by every command that talks to the daemon.
struct SocketOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Path of the daemon's control socket.",
            discussion: "Default: $RUNTIME_DIRECTORY/control.sock under systemd, else $XDG_RUNTIME_DIR/beaconctl/control.sock, else /run/beaconctl/control.sock for root, else /tmp/beaconctl-<uid>/control.sock.",
            valueName: "path"))
    var socket: String?

    var path: String {
        socket ?? ControlSocketPath.standard(environment: Self.environment)
    }

    static var environment: [String: String] {
        var values: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "=") {
                values[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            entry += 1
        }
        return values
    }
}
