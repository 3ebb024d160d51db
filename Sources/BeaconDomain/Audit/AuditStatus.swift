/// What status shows of the audit: where it is kept and how much of it.
package struct AuditStatus: Sendable, Equatable, Codable {
    /// `journal` (the state directory's SQLite file) or `memory` (no state directory: bounded, lost at exit).
    package var storage: String
    package var records: Int
    /// The records' JSON bytes.
    package var bytes: Int
    /// Records dropped to stay within the bounds, and those of them never exported.
    package var dropped: Int
    package var droppedUnexported: Int
    /// Why the journal's audit could not be read, if it could not.
    package var problem: String?

    package init(storage: String, records: Int = 0, bytes: Int = 0, dropped: Int = 0, droppedUnexported: Int = 0, problem: String? = nil) {
        self.storage = storage
        self.records = records
        self.bytes = bytes
        self.dropped = dropped
        self.droppedUnexported = droppedUnexported
        self.problem = problem
    }
}
