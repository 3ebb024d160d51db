/// The firing windows of playback-triggered events that have not fired, ordered by start.
///
/// A played stretch finds its due events by binary search, so a tick costs about log(n) plus
/// the events near the playhead, however many pods are retained. Fired events leave the index.
public struct PendingWindows: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var window: ClosedRange<Milliseconds>
        var reference: EventReference
    }

    private(set) var entries: [Entry] = []
    /// The longest window ever indexed: bounds how far before a stretch a due window may start.
    private var longestWindow: Milliseconds = 0

    public init() {}

    public var count: Int { entries.count }

    public mutating func insert(_ window: ClosedRange<Milliseconds>, for reference: EventReference) {
        let position = entries.partitionPoint { $0.window.lowerBound <= window.lowerBound }
        entries.insert(Entry(window: window, reference: reference), at: position)
        longestWindow = max(longestWindow, window.upperBound - window.lowerBound)
    }

    public mutating func remove(_ reference: EventReference) {
        entries.removeAll { $0.reference == reference }
    }

    public mutating func removeAll(inPods podIDs: Set<String>) {
        entries.removeAll { podIDs.contains($0.reference.podID) }
    }

    /// Removes and returns the events whose window shares an instant with `stretch`, in window order.
    public mutating func takeDue(overlapping stretch: ClosedRange<Milliseconds>) -> [EventReference] {
        let end = entries.partitionPoint { $0.window.lowerBound <= stretch.upperBound }
        var begin = entries.partitionPoint { $0.window.lowerBound < stretch.lowerBound - longestWindow }
        begin = min(begin, end)
        var due: [EventReference] = []
        var kept: [Entry] = []
        for entry in entries[begin..<end] {
            if entry.window.upperBound >= stretch.lowerBound {
                due.append(entry.reference)
            } else {
                kept.append(entry)
            }
        }
        if !due.isEmpty {
            entries.replaceSubrange(begin..<end, with: kept)
        }
        return due
    }
}
