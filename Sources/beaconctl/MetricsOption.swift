import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconHTTP
import BeaconStorage
import Logging

/// The demo's `--metrics-address` option (`run` takes it among its settings), and serving metrics
/// for either command.
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
    static func makeEndpoint(for address: MetricsAddress?) -> MetricsEndpoint? {
        address.map { _ in MetricsEndpoint() }
    }

    /// Starts serving `endpoint` at `address`, its gauges taken from `daemon`; nil when metrics
    /// were not asked for.
    /// - Throws: ``HTTPServerError`` when the address cannot be bound.
    static func serve(_ endpoint: MetricsEndpoint?, at address: MetricsAddress?, of daemon: BeaconDaemon, logger: Logger) async throws -> HTTPServer? {
        guard let address, let endpoint else { return nil }
        let server = try await endpoint.serve(at: address) { await daemon.statusReport() }
        logger.info("serving metrics url=\(server.baseURL)\(MetricsEndpoint.path)")
        if !address.isLoopback {
            logger.warning("metrics are reachable from other hosts address=\(address)")
        }
        return server
    }
}
