#if canImport(Glibc)
import Glibc
#endif

/// Where the journal lives when `--state-dir` is not given.
public enum StateDirectory {
    /// The system daemon's state: systemd's `StateDirectory=beaconctl`.
    public static let system = "/var/lib/beaconctl"

    /// `$STATE_DIRECTORY` under systemd; else ``system`` for root; else `$XDG_STATE_HOME/beaconctl`;
    /// else `$HOME/.local/state/beaconctl`; else `/tmp/beaconctl-<uid>/state`.
    public static func standard(environment: [String: String], userID: UInt32 = getuid()) -> String {
        if let state = environment["STATE_DIRECTORY"], !state.isEmpty {
            // systemd lists one directory per StateDirectory= entry, colon-separated.
            return state.split(separator: ":").first.map(String.init) ?? state
        }
        if userID == 0 { return system }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return "\(state)/beaconctl" }
        if let home = environment["HOME"], !home.isEmpty { return "\(home)/.local/state/beaconctl" }
        return "/tmp/beaconctl-\(userID)/state"
    }
}
