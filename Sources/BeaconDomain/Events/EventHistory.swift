/// The last `capacity` info entries and, apart, the last `capacity` errors and warnings, each
/// oldest first in a ring: a long playback's play and pause entries never push a failure out, and
/// appending never grows either past its bound, however long the daemon runs.
package struct EventHistory: Sendable, Equatable {
    /// The most entries kept of each kind: info, and errors with warnings.
    package let capacity: Int
    /// The sequence number of the newest entry, 0 before the first.
    package private(set) var lastSequence: UInt64 = 0
    private var info: EntryRing
    private var problems: EntryRing
    /// The ad break count of the last `metadataApplied` recorded this session (see
    /// ``record(_:at:)``).
    var recordedAdBreaks: Int?

    package init(capacity: Int) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
        info = EntryRing(capacity: capacity)
        problems = EntryRing(capacity: capacity)
    }

    /// Numbers `event`, stamps it with `time` and keeps it, forgetting the oldest entry of its
    /// kind when full.
    @discardableResult
    package mutating func append(_ event: HistoryEvent, at time: Milliseconds) -> EventEntry {
        lastSequence += 1
        let entry = EventEntry(sequence: lastSequence, time: time, event: event)
        if entry.severity == .info { info.append(entry) } else { problems.append(entry) }
        return entry
    }

    package var count: Int { info.count + problems.count }

    /// Every kept entry, in the order they happened.
    package var entries: [EventEntry] {
        (info.entries + problems.entries).sorted { $0.sequence < $1.sequence }
    }

    /// The kept entries numbered after `sequence`, in order: a gap in the numbers shows the
    /// entries already forgotten.
    package func entries(after sequence: UInt64) -> [EventEntry] {
        guard sequence < lastSequence else { return [] }
        return entries.filter { $0.sequence > sequence }
    }
}

/// At most `capacity` entries, oldest first; the newest replaces the oldest when full.
private struct EntryRing: Sendable, Equatable {
    let capacity: Int
    private var storage: [EventEntry] = []
    /// Where the oldest entry is once `storage` is full.
    private var oldest = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func append(_ entry: EventEntry) {
        if storage.count < capacity {
            storage.append(entry)
        } else {
            storage[oldest] = entry
            oldest = (oldest + 1) % capacity
        }
    }

    var count: Int { storage.count }

    var entries: [EventEntry] { Array(storage[oldest...] + storage[..<oldest]) }
}
