/// The firing windows of playback-triggered events that have not fired, ordered by start.
///
/// A played stretch finds its due events by binary search, so a tick costs about log(n) plus
/// the events near the playhead, however many ad breaks are retained. Fired events are only marked
/// taken, so taking one never moves the others; they are swept out once they are half the index.
package struct PendingWindows: Sendable {
    struct Entry: Sendable, Equatable {
        var window: ClosedRange<Milliseconds>
        var reference: EventReference
        var isTaken = false
    }

    private(set) var entries: [Entry] = []
    /// The longest window ever indexed: bounds how far before a stretch a due window may start.
    private var longestWindow: Milliseconds = 0
    private var takenCount = 0

    package init() {}

    package var count: Int { entries.count - takenCount }

    package mutating func insert(_ window: ClosedRange<Milliseconds>, for reference: EventReference) {
        let position = entries.partitionPoint { $0.window.lowerBound <= window.lowerBound }
        entries.insert(Entry(window: window, reference: reference), at: position)
        longestWindow = max(longestWindow, window.upperBound - window.lowerBound)
    }

    package mutating func remove(_ references: Set<EventReference>) {
        sweep { references.contains($0.reference) }
    }

    package mutating func removeAll(inAdBreaks adBreakIDs: Set<String>) {
        sweep { adBreakIDs.contains($0.reference.adBreakID) }
    }

    /// Removes and returns the events whose window shares an instant with `stretch`, in window
    /// order; with `only`, just those it accepts (an interstitial asset's own ad), the others stay.
    package mutating func takeDue(
        overlapping stretch: ClosedRange<Milliseconds>, only isEligible: (EventReference) -> Bool = { _ in true }
    ) -> [EventReference] {
        let end = entries.partitionPoint { $0.window.lowerBound <= stretch.upperBound }
        var index = min(entries.partitionPoint { $0.window.lowerBound < stretch.lowerBound - longestWindow }, end)
        var due: [EventReference] = []
        while index < end {
            if !entries[index].isTaken && entries[index].window.upperBound >= stretch.lowerBound && isEligible(entries[index].reference) {
                entries[index].isTaken = true
                due.append(entries[index].reference)
            }
            index += 1
        }
        takenCount += due.count
        if takenCount > 64 && takenCount * 2 > entries.count { sweep { _ in false } }
        return due
    }

    /// Drops taken entries and those `isRemoved` names, in one pass.
    private mutating func sweep(_ isRemoved: (Entry) -> Bool) {
        entries.removeAll { $0.isTaken || isRemoved($0) }
        takenCount = 0
    }
}
