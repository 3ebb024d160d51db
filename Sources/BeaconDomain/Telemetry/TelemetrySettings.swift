/// The `[telemetry]` settings of the reporter that pushes the audit and the daemon's metrics to an
/// OpenTelemetry collector over OTLP/HTTP. Configured when `endpoint` is set.
package struct TelemetrySettings: Sendable, Equatable {
    /// How request bodies go on the wire.
    package enum Compression: String, Sendable, Equatable, CaseIterable {
        case gzip
        case none
    }

    /// The collector's base URL: logs go to `{endpoint}/v1/logs`, metrics to `{endpoint}/v1/metrics`.
    package var endpoint: String?
    /// Extra request headers (an API key): never logged, masked wherever settings are shown.
    package var headers: [String: String] = [:]
    /// Between two exports of every metric.
    package var exportInterval: Duration = .seconds(60)
    /// The longest an audit record waits before it leaves, in a batch.
    package var logInterval: Duration = .seconds(10)
    /// The most log records in one request.
    package var batchSize = 512
    /// Operator-set resource attributes (`deployment.environment`, a device model, a region).
    package var resourceAttributes: [String: String] = [:]
    package var compression = Compression.gzip

    /// The largest request body, before compression: batches are cut to fit.
    package static let maxBatchBytes = 1 << 20
    package static let batchSizes: ClosedRange<Int> = 1...8192
    /// The shortest export and log intervals: a box must not hammer a collector a fleet shares.
    package static let minInterval = Duration.seconds(1)
    /// Headers the reporter writes itself.
    package static let reservedHeaders: Set<String> = ["content-type", "content-encoding", "content-length", "host"]

    package init() {}

    package var isConfigured: Bool { endpoint != nil }
}
