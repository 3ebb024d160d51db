/// The audit kept in memory (no state directory, or while the journal is out of use): bounded by
/// age and bytes, the oldest dropped first and counted, with the same sequence and export mark as
/// the journal's table.
package struct AuditRing: Sendable {
    package let bounds: AuditBounds
    package private(set) var entries: [AuditEntry] = []
    package private(set) var bytes = 0
    /// Records dropped to stay within the bounds, and those of them never exported.
    package private(set) var dropped = 0
    package private(set) var droppedUnexported = 0
    /// The telemetry exporter has sent every record up to this sequence.
    package private(set) var exportedThrough: Int64 = 0
    private var ids: Set<String> = []
    private var nextSequence: Int64 = 1
    private var sizes: [Int] = []

    package init(bounds: AuditBounds) {
        self.bounds = bounds
    }

    /// Adds the records not kept yet (by id), then drops what is too old at `wallNow` or too much.
    package mutating func append(_ records: [AuditRecord], wallNow: Milliseconds) {
        for record in records where ids.insert(record.id).inserted {
            entries.append(AuditEntry(sequence: nextSequence, record: record))
            nextSequence += 1
            let size = record.jsonLine.utf8.count
            sizes.append(size)
            bytes += size
        }
        let cutoff = wallNow - bounds.maxAge
        var drop = 0
        var freed = 0
        while drop < entries.count, entries[drop].record.at < cutoff || bytes - freed > bounds.maxBytes {
            freed += sizes[drop]
            drop += 1
        }
        guard drop > 0 else { return }
        for entry in entries[..<drop] {
            ids.remove(entry.record.id)
            if entry.sequence > exportedThrough { droppedUnexported += 1 }
        }
        dropped += drop
        bytes -= freed
        entries.removeFirst(drop)
        sizes.removeFirst(drop)
    }

    /// What the exporter sends next: the records after `sequence`, oldest first, at most `limit`.
    package func entries(after sequence: Int64, limit: Int) -> ArraySlice<AuditEntry> {
        let first = entries.partitionPoint { $0.sequence <= sequence }
        return entries[first..<min(entries.count, first + max(limit, 0))]
    }

    package mutating func markExported(through sequence: Int64) {
        exportedThrough = max(exportedThrough, sequence)
    }
}
