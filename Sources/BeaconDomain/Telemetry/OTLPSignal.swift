/// What an export carries: log records or metrics. Each has its own path on the collector and
/// its own name for what the collector rejected.
package enum OTLPSignal: Sendable, Equatable, CaseIterable {
    case logs
    case metrics

    /// The path under the collector's base URL that takes this signal (OTLP/HTTP's default).
    package var path: String {
        switch self {
        case .logs: "/v1/logs"
        case .metrics: "/v1/metrics"
        }
    }
}
