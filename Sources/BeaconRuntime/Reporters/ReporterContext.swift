import BeaconDomain
import Logging

/// What the composition root gives each reporter it builds: an HTTP client of its own (so ad
/// beacons are never slowed), the clocks, the per-box state and what it reads of the settings.
package struct ReporterContext: Sendable {
    package var client: any HTTPClient
    package var time: TimeSource
    package var state: any ReporterStateStore
    package var logger: Logger
    /// beaconctl's version, reported as the SDK's.
    package var version: String
    /// What a reporter's last requests get at shutdown, after the daemon's last notification.
    package var drainTimeout: Duration

    package init(
        client: any HTTPClient, time: TimeSource, state: any ReporterStateStore, logger: Logger, version: String, drainTimeout: Duration
    ) {
        self.client = client
        self.time = time
        self.state = state
        self.logger = logger
        self.version = version
        self.drainTimeout = drainTimeout
    }
}

/// Builds one reporter in the composition root.
package typealias ReporterFactory = @Sendable (ReporterContext) -> any Reporter
