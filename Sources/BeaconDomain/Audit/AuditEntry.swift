/// An audit record as kept: its place in the audit, which only grows, and the record.
package struct AuditEntry: Sendable, Equatable {
    /// Its order among every record ever kept: the telemetry exporter sends up to one and remembers it.
    package var sequence: Int64
    package var record: AuditRecord

    package init(sequence: Int64, record: AuditRecord) {
        self.sequence = sequence
        self.record = record
    }
}
