import BeaconDomain
import ServiceLifecycle

/// In a service group, a server serves until the graceful shutdown, then stops.
extension HTTPServer: Service {
    package func run() async {
        try? await gracefulShutdown()
        await stop()
    }
}
