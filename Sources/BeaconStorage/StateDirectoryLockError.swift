import BeaconDomain
/// Why ``StateDirectoryLock`` could not take its lock.
package struct StateDirectoryLockError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// Another process holds it: its PID, when it has written it yet.
        case held(by: Int32?)
        /// The directory or the lock file cannot be made or opened (unwritable, full, missing parent).
        case unavailable(String)
    }

    package var directory: String
    package var kind: Kind

    package init(directory: String, kind: Kind) {
        self.directory = directory
        self.kind = kind
    }

    package var description: String {
        switch kind {
        case .held(let holder?): "the state directory \(directory) is in use by another beaconctl daemon, process \(holder)"
        case .held(nil): "the state directory \(directory) is in use by another beaconctl daemon"
        case .unavailable(let reason): "cannot lock the state directory \(directory): \(reason)"
        }
    }
}
