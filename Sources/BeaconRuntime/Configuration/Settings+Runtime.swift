import BeaconDomain

extension Settings {
    package var runtime: RuntimeSettings {
        RuntimeSettings(
            debugTracking: debugTracking, quiet: quiet, metadataInterval: .seconds(metadataInterval), retention: .seconds(retention),
            beaconMaxAge: .seconds(beaconMaxAge))
    }
}
