/// The stretches of program time that were played, kept merged and ordered.
///
/// Late metadata is checked against them, so an event whose window was played before the
/// metadata arrived still fires.
package struct PlayedStretches: Sendable, Equatable, Codable {
    package private(set) var ranges: [ClosedRange<Milliseconds>] = []

    package init() {}

    /// Adds a played stretch, merging it with the stretches it touches.
    package mutating func insert(_ stretch: ClosedRange<Milliseconds>) {
        // First range whose end reaches the new stretch's start.
        let first = ranges.partitionPoint { $0.upperBound < stretch.lowerBound }
        var merged = stretch
        var last = first
        while last < ranges.count, ranges[last].lowerBound <= stretch.upperBound {
            merged = min(merged.lowerBound, ranges[last].lowerBound)...max(merged.upperBound, ranges[last].upperBound)
            last += 1
        }
        ranges.replaceSubrange(first..<last, with: CollectionOfOne(merged))
    }

    /// Whether any played instant lies in `window`.
    package func intersects(_ window: ClosedRange<Milliseconds>) -> Bool {
        let index = ranges.partitionPoint { $0.upperBound < window.lowerBound }
        return index < ranges.count && ranges[index].lowerBound <= window.upperBound
    }

    /// Forgets stretches that ended before `cutoff`.
    package mutating func prune(endingBefore cutoff: Milliseconds) {
        let keepFrom = ranges.partitionPoint { $0.upperBound < cutoff }
        ranges.removeFirst(keepFrom)
    }
}

extension RandomAccessCollection {
    /// The index of the first element for which `isBefore` is false, in a collection where
    /// every such element follows every element for which it is true (binary search).
    func partitionPoint(where isBefore: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if isBefore(self[middle]) {
                low = index(after: middle)
                count -= half + 1
            } else {
                count = half
            }
        }
        return low
    }
}
