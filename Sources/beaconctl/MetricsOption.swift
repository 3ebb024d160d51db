import ArgumentParser
import BeaconCore
import Logging

/// The `--metrics-address` option of the commands that run a daemon, and serving it.
struct MetricsOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Serve Prometheus metrics at http://<address>/metrics: PORT or HOST:PORT; a bare port or localhost means 127.0.0.1.",
            valueName: "address"),
        transform: { text in
            do { return try MetricsAddress(parsing: text) } catch { throw ValidationError("\(error)") }
        })
    var metricsAddress: MetricsAddress?

    /// The endpoint the daemon's notifications go to, when metrics were asked for.
    func makeEndpoint() -> MetricsEndpoint? {
        metricsAddress.map { _ in MetricsEndpoint() }
    }

    /// Starts serving `endpoint`, its gauges taken from `daemon`; nil when metrics were not asked for.
    /// - Throws: ``HTTPServerError`` when the address cannot be bound.
    func serve(_ endpoint: MetricsEndpoint?, of daemon: BeaconDaemon, logger: Logger) async throws -> HTTPServer? {
        guard let metricsAddress, let endpoint else { return nil }
        let server = try await endpoint.serve(at: metricsAddress) { await daemon.statusReport() }
        logger.info("serving metrics url=\(server.baseURL)\(MetricsEndpoint.path)")
        if !metricsAddress.isLoopback {
            logger.warning("metrics are reachable from other hosts address=\(metricsAddress)")
        }
        return server
    }
}
