/// The last `capacity` events, oldest first, in a ring: appending never grows it past its bound
/// and costs the same however long the daemon runs.
package struct EventHistory: Sendable, Equatable {
    package let capacity: Int
    /// The sequence number of the newest entry, 0 before the first.
    package private(set) var lastSequence: UInt64 = 0
    private var storage: [EventEntry] = []
    /// Where the oldest entry is once `storage` is full.
    private var oldest = 0
    /// The ad break count of the last `metadataApplied` recorded this session (see
    /// ``record(_:at:)``).
    var recordedAdBreaks: Int?

    package init(capacity: Int) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
        storage.reserveCapacity(capacity)
    }

    /// Numbers `event`, stamps it with `time` and keeps it, forgetting the oldest entry when full.
    @discardableResult
    package mutating func append(_ event: HistoryEvent, at time: Milliseconds) -> EventEntry {
        lastSequence += 1
        let entry = EventEntry(sequence: lastSequence, time: time, event: event)
        if storage.count < capacity {
            storage.append(entry)
        } else {
            storage[oldest] = entry
            oldest = (oldest + 1) % capacity
        }
        return entry
    }

    package var count: Int { storage.count }

    /// Every kept entry, oldest first.
    package var entries: [EventEntry] {
        Array(storage[oldest...] + storage[..<oldest])
    }

    /// The kept entries numbered after `sequence`, oldest first: all of them when some after it
    /// are already forgotten (the gap in the numbers shows it).
    package func entries(after sequence: UInt64) -> [EventEntry] {
        guard sequence < lastSequence else { return [] }
        let wanted = Int(min(lastSequence - sequence, UInt64(storage.count)))
        return Array(entries.suffix(wanted))
    }
}
