/// Every pod the session knows, merged from all metadata refreshes, ordered by start time.
///
/// Pods are keyed by id, ads by id within their pod, tracking events by type, start time and
/// signaling URLs within their ad. Merging adds what is new and updates times and durations,
/// but never drops an ad or an event nor resets a reporting state: a refresh can change what is
/// known, never what was done.
public struct AdSchedule: Sendable, Equatable {
    public private(set) var pods: [Pod] = []
    private var positions: [String: Int] = [:]

    public init() {}

    /// What a merge changed, for the matcher to index.
    public struct MergeChanges: Sendable, Equatable {
        /// Events that did not exist before.
        public var added: [EventReference] = []
        /// Existing events whose duration changed.
        public var resized: [EventReference] = []
    }

    public func pod(id: String) -> Pod? { positions[id].map { pods[$0] } }

    public subscript(reference: EventReference) -> TrackingEvent? {
        guard let position = positions[reference.podID],
            pods[position].ads.indices.contains(reference.adIndex),
            pods[position].ads[reference.adIndex].trackingEvents.indices.contains(reference.eventIndex)
        else { return nil }
        return pods[position].ads[reference.adIndex].trackingEvents[reference.eventIndex]
    }

    public func ad(containing reference: EventReference) -> Ad? {
        guard let position = positions[reference.podID], pods[position].ads.indices.contains(reference.adIndex)
        else { return nil }
        return pods[position].ads[reference.adIndex]
    }

    public mutating func setReportingState(_ state: ReportingState, of reference: EventReference) {
        guard self[reference] != nil, let position = positions[reference.podID] else { return }
        pods[position].ads[reference.adIndex].trackingEvents[reference.eventIndex].reportingState = state
    }

    /// Merges one metadata document.
    public mutating func merge(_ incoming: [Pod]) -> MergeChanges {
        var changes = MergeChanges()
        var reordered = false
        for incomingPod in incoming {
            guard let position = positions[incomingPod.id] else {
                pods.append(Pod(id: incomingPod.id, startTime: incomingPod.startTime, duration: incomingPod.duration, ads: []))
                positions[incomingPod.id] = pods.count - 1
                reordered = true
                merge(incomingPod.ads, intoPodAt: pods.count - 1, changes: &changes)
                continue
            }
            if pods[position].startTime != incomingPod.startTime { reordered = true }
            pods[position].startTime = incomingPod.startTime
            pods[position].duration = incomingPod.duration
            merge(incomingPod.ads, intoPodAt: position, changes: &changes)
        }
        if reordered { reindex() }
        // A document may repeat an event with another duration: it is new all the same, and
        // reporting it resized too would index it twice, so that it fired twice.
        if !changes.added.isEmpty && !changes.resized.isEmpty {
            let added = Set(changes.added)
            changes.resized.removeAll { added.contains($0) }
        }
        return changes
    }

    private mutating func merge(_ incomingAds: [Ad], intoPodAt position: Int, changes: inout MergeChanges) {
        let podID = pods[position].id
        for incomingAd in incomingAds {
            let adIndex: Int
            if let existing = pods[position].ads.firstIndex(where: { $0.id == incomingAd.id }) {
                adIndex = existing
                pods[position].ads[adIndex].startTime = incomingAd.startTime
                pods[position].ads[adIndex].duration = incomingAd.duration
            } else {
                pods[position].ads.append(Ad(id: incomingAd.id, startTime: incomingAd.startTime, duration: incomingAd.duration, trackingEvents: []))
                adIndex = pods[position].ads.count - 1
            }
            for incomingEvent in incomingAd.trackingEvents {
                let key = incomingEvent.key
                // Read in place: a local copy of the event list would make the append below copy it whole.
                if let eventIndex = pods[position].ads[adIndex].trackingEvents.firstIndex(where: {
                    $0.startTime == key.startTime && $0.key == key
                }) {
                    if pods[position].ads[adIndex].trackingEvents[eventIndex].duration != incomingEvent.duration {
                        pods[position].ads[adIndex].trackingEvents[eventIndex].duration = incomingEvent.duration
                        changes.resized.append(EventReference(podID: podID, adIndex: adIndex, eventIndex: eventIndex))
                    }
                } else {
                    var event = incomingEvent
                    event.reportingState = .idle
                    let eventIndex = pods[position].ads[adIndex].trackingEvents.count
                    pods[position].ads[adIndex].trackingEvents.append(event)
                    changes.added.append(EventReference(podID: podID, adIndex: adIndex, eventIndex: eventIndex))
                }
            }
        }
    }

    /// Drops pods that ended before `cutoff` and are not in `current`; returns their ids.
    public mutating func prune(endedBefore cutoff: Milliseconds, keeping current: Set<String>) -> Set<String> {
        var removed: Set<String> = []
        pods.removeAll { pod in
            let drop = pod.endTime < cutoff && !current.contains(pod.id)
            if drop { removed.insert(pod.id) }
            return drop
        }
        if !removed.isEmpty { reindex() }
        return removed
    }

    /// The ads whose action window holds `playhead`, with their pod.
    public func ads(at playhead: Milliseconds) -> [(pod: Pod, adIndex: Int)] {
        // Pods do not overlap in practice, but a pod's ads may outrun it: look back a little.
        let after = pods.partitionPoint { $0.startTime <= playhead }
        var found: [(pod: Pod, adIndex: Int)] = []
        for pod in pods[max(0, after - 2)..<after] {
            for (adIndex, ad) in pod.ads.enumerated() where ad.actionWindow.contains(playhead) {
                found.append((pod, adIndex))
            }
        }
        return found
    }

    /// The first pod that starts after `playhead`.
    public func nextPod(after playhead: Milliseconds) -> Pod? {
        let index = pods.partitionPoint { $0.startTime <= playhead }
        return index < pods.count ? pods[index] : nil
    }

    private mutating func reindex() {
        pods.sort { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
        positions = Dictionary(uniqueKeysWithValues: pods.enumerated().map { ($1.id, $0) })
    }
}
