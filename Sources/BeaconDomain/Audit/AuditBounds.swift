/// How much audit a box keeps: the oldest records go first, and are counted, once either bound is passed.
package struct AuditBounds: Sendable, Equatable {
    package var maxAge: Milliseconds
    /// The records' JSON bytes, summed.
    package var maxBytes: Int

    package static let standard = AuditBounds(maxAge: 7 * 24 * 3_600_000, maxBytes: 32 << 20)
    /// Without a state directory the audit lives in memory: a box's memory is smaller than its disk.
    package static let inMemory = AuditBounds(maxAge: 7 * 24 * 3_600_000, maxBytes: 1 << 20)

    package init(maxAge: Milliseconds, maxBytes: Int) {
        self.maxAge = maxAge
        self.maxBytes = maxBytes
    }
}
