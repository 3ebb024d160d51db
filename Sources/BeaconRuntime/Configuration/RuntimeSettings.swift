import BeaconDomain
/// The settings a running daemon takes on at a reload (SIGHUP); the log level, also changeable, is
/// the logging system's (``SharedLogLevel``). Every other setting needs a restart.
public struct RuntimeSettings: Sendable, Equatable {
    public var debugTracking: Bool
    public var quiet: Bool
    public var metadataInterval: Duration
    public var retention: Duration
    public var beaconMaxAge: Duration

    public init(debugTracking: Bool, quiet: Bool, metadataInterval: Duration, retention: Duration, beaconMaxAge: Duration) {
        self.debugTracking = debugTracking
        self.quiet = quiet
        self.metadataInterval = metadataInterval
        self.retention = retention
        self.beaconMaxAge = beaconMaxAge
    }
}

extension Settings {
    public var runtime: RuntimeSettings {
        RuntimeSettings(
            debugTracking: debugTracking, quiet: quiet, metadataInterval: .seconds(metadataInterval), retention: .seconds(retention),
            beaconMaxAge: .seconds(beaconMaxAge))
    }
}
