import BeaconDomain
import Logging

/// What the composition root gives each reporter it builds: an HTTP client of its own (so ad
/// beacons are never slowed), the clocks, the per-box state and what it reads of the settings.
package struct ReporterContext: Sendable {
    package var client: any HTTPClient
    package var time: TimeSource
    /// The daemon's random source (a copy: a reporter draws on its own).
    package var random: any RandomNumberGenerator & Sendable
    package var state: any ReporterStateStore
    package var logger: Logger
    /// beaconctl's version, reported as the SDK's.
    package var version: String
    /// What a reporter's last requests get at shutdown, after the daemon's last notification.
    package var drainTimeout: Duration
    /// Where the heartbeat keeps each content's last bookmark (the journal's directory).
    package var bookmarks: any BookmarkStore
    /// What the telemetry reporter reads once the daemon is built: the audit, the metrics.
    package var telemetry: TelemetrySources
    /// Publishes on the daemon's hub what a reporter decided (what the player was told), for the
    /// outputs (the event history, metrics, the player's channel); the reporters pass over it.
    package var publish: @Sendable (DaemonNotification) -> Void

    package init(
        client: any HTTPClient, time: TimeSource, random: any RandomNumberGenerator & Sendable, state: any ReporterStateStore, logger: Logger, version: String, drainTimeout: Duration,
        bookmarks: any BookmarkStore, telemetry: TelemetrySources = TelemetrySources(), publish: @escaping @Sendable (DaemonNotification) -> Void
    ) {
        self.client = client
        self.time = time
        self.random = random
        self.state = state
        self.logger = logger
        self.version = version
        self.drainTimeout = drainTimeout
        self.bookmarks = bookmarks
        self.telemetry = telemetry
        self.publish = publish
    }
}

/// Builds one reporter in the composition root.
package typealias ReporterFactory = @Sendable (ReporterContext) -> any Reporter
