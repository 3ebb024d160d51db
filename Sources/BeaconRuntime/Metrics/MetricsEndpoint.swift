import BeaconDomain
internal import Prometheus

/// The `/metrics` endpoint: the daemon's metrics in the Prometheus text exposition format.
///
/// Owns the registry its ``metrics`` record into; each scrape first refreshes the gauges from the
/// daemon's status, so ages are as of the scrape.
package struct MetricsEndpoint: Sendable {
    package static let path = "/metrics"
    /// The Prometheus text exposition format, version 0.0.4.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"
    /// A scrape is a bodiless GET: anything bigger is refused before it is read.
    package static let maxRequestBodyBytes = 1024

    /// Where the daemon's notifications go.
    package let metrics: DaemonMetrics
    private let registry: PrometheusCollectorRegistry
    private let now: @Sendable () -> Milliseconds

    package init(now: @escaping @Sendable () -> Milliseconds = WallClock.now) {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        self.metrics = DaemonMetrics(factory: PrometheusMetricsFactory(registry: registry))
        self.now = now
    }

    /// `GET /metrics` (any query) gets the exposition, with the gauges refreshed from `status`;
    /// every other method or path gets 404.
    package func respond(to request: HTTPServer.Request, status: () async -> StatusReport) async -> HTTPServer.Response {
        guard request.method == "GET", request.path == Self.path else { return .status(404) }
        return HTTPServer.Response(status: 200, headers: [("Content-Type", Self.contentType)], body: await exposition(status: status))
    }

    /// The exposition as a scrape gets it, the gauges refreshed from `status`: also what the
    /// telemetry reporter exports.
    package func exposition(status: () async -> StatusReport) async -> [UInt8] {
        metrics.observe(await status(), now: now())
        return registry.emitToBuffer()
    }

    /// Starts serving on `address`; the server runs until stopped.
    /// - Throws: ``HTTPServerError/cannotListen(host:port:reason:)`` when the address cannot be bound.
    package func serve(at address: MetricsAddress, status: @escaping @Sendable () async -> StatusReport) async throws(HTTPServerError) -> HTTPServer {
        try await HTTPServer.start(host: address.host, port: address.port, maxRequestBodyBytes: Self.maxRequestBodyBytes) { request in
            await respond(to: request, status: status)
        }
    }
}
