import BeaconDomain
#if canImport(Glibc)
import Glibc
#endif

/// Where the journal lives when `--state-dir` is not given.
package enum StateDirectory {
    /// The system daemon's state: systemd's `StateDirectory=beaconctl`.
    package static let system = "/var/lib/beaconctl"

    /// `$STATE_DIRECTORY` under systemd; else ``system`` for root; else `$XDG_STATE_HOME/beaconctl`
    /// when it is absolute; else `$HOME/.local/state/beaconctl`; else `/tmp/beaconctl-<uid>/state`.
    package static func standard(environment: [String: String], userID: UInt32 = getuid()) -> String {
        // systemd lists one directory per StateDirectory= entry, colon-separated.
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first {
            return String(state)
        }
        if userID == 0 { return system }
        // The XDG base directory specification says a relative path is invalid and must be ignored.
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return "\(state)/beaconctl" }
        if let home = environment["HOME"], !home.isEmpty { return "\(home)/.local/state/beaconctl" }
        return "/tmp/beaconctl-\(userID)/state"
    }
}
