#if canImport(Glibc)
import Glibc
#endif

/// Where the control socket lives when `--socket` is not given.
public enum ControlSocketPath {
    /// `$XDG_RUNTIME_DIR/beaconctl/control.sock`; else `$RUNTIME_DIRECTORY/control.sock` under systemd;
    /// else `/run/beaconctl/control.sock` for root; else `/tmp/beaconctl-<uid>/control.sock`.
    public static func standard(environment: [String: String]) -> String {
        if let runtime = environment["RUNTIME_DIRECTORY"], !runtime.isEmpty {
            return "\(runtime.split(separator: ":").first.map(String.init) ?? runtime)/control.sock"
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return "\(runtime)/beaconctl/control.sock"
        }
        let uid = getuid()
        return uid == 0 ? "/run/beaconctl/control.sock" : "/tmp/beaconctl-\(uid)/control.sock"
    }
}
