/// The daemon's answer to the `audit` control line: where its audit is kept, and, when only in
/// its memory (no state directory), the records the query asked for.
package struct AuditReply: Sendable, Equatable, Codable {
    /// `journal` or `memory`.
    package var storage: String
    /// The state directory whose journal holds the audit: `beaconctl audit` reads the file itself.
    package var directory: String?
    package var records: [AuditRecord]?

    package init(storage: String, directory: String? = nil, records: [AuditRecord]? = nil) {
        self.storage = storage
        self.directory = directory
        self.records = records
    }
}
