/// One export request of the telemetry reporter: a signal's records, encoded once, sent again as
/// they are when retried.
package struct TelemetryBatch: Sendable, Equatable {
    package var signal: OTLPSignal
    /// The ExportLogsServiceRequest or ExportMetricsServiceRequest, as OTLP's JSON encoding writes it.
    package var body: [UInt8]
    /// Log records or metrics in it.
    package var count: Int
    /// The last audit record's sequence in it (logs): the export mark once the collector took it.
    package var lastSequence: Int64?
    /// Requests of it so far.
    package var attempts = 0
}
