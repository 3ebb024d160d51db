/// What a journal commit adds to the audit: new records, and how far the telemetry exporter got.
package struct AuditChanges: Sendable, Equatable {
    package var records: [AuditRecord]
    /// The exporter sent every record up to this sequence. A hint: lost in a crash, a few records
    /// go again, carrying their ids.
    package var exportedThrough: Int64?

    package init(records: [AuditRecord] = [], exportedThrough: Int64? = nil) {
        self.records = records
        self.exportedThrough = exportedThrough
    }

    package var isEmpty: Bool { records.isEmpty && exportedThrough == nil }
}
