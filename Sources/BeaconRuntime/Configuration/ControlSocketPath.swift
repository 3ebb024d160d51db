import BeaconDomain
#if canImport(Glibc)
import Glibc
#endif

/// Where the control socket lives when `--socket` is not given.
package enum ControlSocketPath {
    /// The system daemon's socket: systemd's `RuntimeDirectory=beaconctl`.
    package static let system = "/run/beaconctl/control.sock"

    /// `$RUNTIME_DIRECTORY/control.sock` under systemd; else ``system`` for root (whose login
    /// sessions set `$XDG_RUNTIME_DIR` too, yet mean the system daemon); else
    /// `$XDG_RUNTIME_DIR/beaconctl/control.sock`; else `/tmp/beaconctl-<uid>/control.sock`.
    package static func standard(environment: [String: String], userID: UInt32 = getuid()) -> String {
        if let runtime = environment["RUNTIME_DIRECTORY"], !runtime.isEmpty {
            // systemd lists one directory per RuntimeDirectory= entry, colon-separated.
            return "\(runtime.split(separator: ":").first.map(String.init) ?? runtime)/control.sock"
        }
        if userID == 0 { return system }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return "\(runtime)/beaconctl/control.sock"
        }
        return "/tmp/beaconctl-\(userID)/control.sock"
    }
}
