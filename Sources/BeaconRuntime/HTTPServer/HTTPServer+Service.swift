import BeaconDomain
import ServiceLifecycle

/// In a service group, a server serves until the graceful shutdown, then stops.
extension HTTPServer: Service {
    public func run() async {
        try? await gracefulShutdown()
        await stop()
    }
}
