import BeaconDomain
import NIOCore

/// Process-wide settings that keep the daemon small beside a player on a set-top box.
package enum ProcessFootprint {
    /// Call first thing, before any event loop starts.
    package static func minimize() {
        // The control socket's few clients need one event loop; NIO would start one per core.
        NIOSingletons.groupLoopCountSuggestion = 1
        NIOSingletons.blockingPoolThreadCountSuggestion = 1
    }
}
