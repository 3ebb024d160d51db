import BeaconDomain
import Synchronization

/// What the telemetry reporter reads, which exists only once the daemon is built (the reporters
/// are built first, to subscribe to its hub): the audit, and the daemon's metrics as `/metrics`
/// writes them. Bound once by the composition root.
package final class TelemetrySources: Sendable {
    struct Bound: Sendable {
        var audit: AuditLog
        var metrics: @Sendable () async -> String
    }

    private let bound = Mutex<Bound?>(nil)

    package init() {}

    func bind(audit: AuditLog, metrics: @escaping @Sendable () async -> String) {
        bound.withLock { $0 = Bound(audit: audit, metrics: metrics) }
    }

    var current: Bound? { bound.withLock { $0 } }
}
