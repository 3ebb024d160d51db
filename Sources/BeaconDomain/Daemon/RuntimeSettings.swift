/// The settings a running daemon takes on at a reload (SIGHUP); the log level, also changeable, is
/// the logging system's. Every other setting needs a restart.
package struct RuntimeSettings: Sendable, Equatable {
    package var debugTracking: Bool
    package var quiet: Bool
    package var metadataInterval: Duration
    package var retention: Duration
    package var beaconMaxAge: Duration

    package init(debugTracking: Bool, quiet: Bool, metadataInterval: Duration, retention: Duration, beaconMaxAge: Duration) {
        self.debugTracking = debugTracking
        self.quiet = quiet
        self.metadataInterval = metadataInterval
        self.retention = retention
        self.beaconMaxAge = beaconMaxAge
    }
}

extension DaemonConfiguration {
    /// Takes on the settings a reload may change.
    package mutating func take(_ runtime: RuntimeSettings) {
        debugTracking = runtime.debugTracking
        quiet = runtime.quiet
        metadataInterval = runtime.metadataInterval
        retention = runtime.retention
        beaconMaxAge = runtime.beaconMaxAge
    }
}
