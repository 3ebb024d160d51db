/// Every ad break the session knows, merged from all metadata refreshes, ordered by start time.
///
/// Ad breaks are keyed by id, ads by id within their ad break, tracking events by type and start time within
/// their ad. Merging adds what is new and updates times, durations and the signaling URLs of events
/// not fired yet, but never drops an ad or an event nor resets a reporting state: a refresh can
/// change what is known, never what was done. What a refresh leaves out is marked, not dropped:
/// an ad withdrawn before it played, an event its ad no longer covers.
public struct AdSchedule: Sendable, Equatable {
    package private(set) var adBreaks: [AdBreak] = []
    /// How many ad breaks pruning forgot, all before those kept: ad breaks are numbered from the
    /// session's first (``AdBreakSummary/index``) although a live window forgets its early ones.
    package private(set) var forgottenCount = 0
    private var positions: [String: Int] = [:]

    package init() {}

    /// What a merge changed, for the matcher to index.
    package struct MergeChanges: Sendable, Equatable {
        /// Events that did not exist before.
        package var added: [EventReference] = []
        /// Existing events whose duration changed.
        package var resized: [EventReference] = []
        /// Events of ads this merge withdrew.
        package var withdrawn: [EventReference] = []
    }

    /// What a confirmation pass changed, for the matcher to index.
    package struct ConfirmationChanges: Sendable, Equatable {
        /// Events that waited and that their ad now covers.
        package var confirmed: [EventReference] = []
        /// Events that their ad no longer covers, or never did: they wait, or never fire.
        package var unconfirmed: [EventReference] = []
    }

    /// The schedule exactly as a snapshot kept it, every reference as it was.
    package init(restoring adBreaks: [AdBreak]) {
        self.adBreaks = adBreaks
        reindex()
    }

    /// Every tracking event's reference, ad break by ad break, in order.
    package var references: [EventReference] {
        adBreaks.flatMap { adBreak in
            adBreak.ads.indices.flatMap { adIndex in
                adBreak.ads[adIndex].trackingEvents.indices.map { EventReference(adBreakID: adBreak.id, adIndex: adIndex, eventIndex: $0) }
            }
        }
    }

    package func adBreak(id: String) -> AdBreak? { positions[id].map { adBreaks[$0] } }

    package subscript(reference: EventReference) -> TrackingEvent? {
        guard let position = positions[reference.adBreakID],
            adBreaks[position].ads.indices.contains(reference.adIndex),
            adBreaks[position].ads[reference.adIndex].trackingEvents.indices.contains(reference.eventIndex)
        else { return nil }
        return adBreaks[position].ads[reference.adIndex].trackingEvents[reference.eventIndex]
    }

    package func ad(containing reference: EventReference) -> Ad? {
        guard let position = positions[reference.adBreakID], adBreaks[position].ads.indices.contains(reference.adIndex)
        else { return nil }
        return adBreaks[position].ads[reference.adIndex]
    }

    package mutating func setReportingState(_ state: ReportingState, of reference: EventReference) {
        guard self[reference] != nil, let position = positions[reference.adBreakID] else { return }
        adBreaks[position].ads[reference.adIndex].trackingEvents[reference.eventIndex].reportingState = state
    }

    /// Merges one metadata document's ad breaks; `dataRange` is the range it covers: a known ad missing
    /// from it whose start lies in that range was withdrawn.
    package mutating func merge(_ incoming: [AdBreak], within dataRange: DataRange) -> MergeChanges {
        var changes = MergeChanges()
        var reordered = false
        // Events this document described, so that an event it repeats takes the union of their URLs.
        var described: Set<EventReference> = []
        for incomingAdBreak in incoming {
            guard let position = positions[incomingAdBreak.id] else {
                adBreaks.append(AdBreak(id: incomingAdBreak.id, startTime: incomingAdBreak.startTime, duration: incomingAdBreak.duration, ads: []))
                positions[incomingAdBreak.id] = adBreaks.count - 1
                reordered = true
                merge(incomingAdBreak.ads, intoAdBreakAt: adBreaks.count - 1, changes: &changes, described: &described)
                continue
            }
            if adBreaks[position].startTime != incomingAdBreak.startTime { reordered = true }
            adBreaks[position].startTime = incomingAdBreak.startTime
            adBreaks[position].duration = incomingAdBreak.duration
            merge(incomingAdBreak.ads, intoAdBreakAt: position, changes: &changes, described: &described)
        }
        if reordered { reindex() }
        changes.withdrawn = withdraw(missingFrom: incoming, within: dataRange)
        // A document may repeat an event with another duration: it is new all the same, and
        // reporting it resized too would index it twice, so that it fired twice.
        if !changes.added.isEmpty && !changes.resized.isEmpty {
            let added = Set(changes.added)
            changes.resized.removeAll { added.contains($0) }
        }
        return changes
    }

    private mutating func merge(
        _ incomingAds: [Ad], intoAdBreakAt position: Int, changes: inout MergeChanges, described: inout Set<EventReference>
    ) {
        let adBreakID = adBreaks[position].id
        for incomingAd in incomingAds {
            let adIndex: Int
            if let existing = adBreaks[position].ads.firstIndex(where: { $0.id == incomingAd.id }) {
                adIndex = existing
                adBreaks[position].ads[adIndex].startTime = incomingAd.startTime
                adBreaks[position].ads[adIndex].duration = incomingAd.duration
                adBreaks[position].ads[adIndex].attachedTracking = incomingAd.attachedTracking
            } else {
                adBreaks[position].ads.append(
                    Ad(
                        id: incomingAd.id, startTime: incomingAd.startTime, duration: incomingAd.duration, trackingEvents: [],
                        attachedTracking: incomingAd.attachedTracking))
                adIndex = adBreaks[position].ads.count - 1
            }
            // What a document says of the ad is the latest description; one that says nothing keeps the earlier.
            if let title = incomingAd.title { adBreaks[position].ads[adIndex].title = title }
            if let creativeID = incomingAd.creativeID { adBreaks[position].ads[adIndex].creativeID = creativeID }
            if let adSystem = incomingAd.adSystem { adBreaks[position].ads[adIndex].adSystem = adSystem }
            let withdrawn = adBreaks[position].ads[adIndex].isWithdrawn
            for incomingEvent in incomingAd.trackingEvents {
                let key = incomingEvent.key
                // Read in place: a local copy of the event list would make the append below copy it whole.
                if let eventIndex = adBreaks[position].ads[adIndex].trackingEvents.firstIndex(where: {
                    $0.startTime == key.startTime && $0.key == key
                }) {
                    let reference = EventReference(adBreakID: adBreakID, adIndex: adIndex, eventIndex: eventIndex)
                    let repeated = !described.insert(reference).inserted
                    adBreaks[position].ads[adIndex].trackingEvents[eventIndex].describe(incomingEvent.signalingURLs, repeated: repeated)
                    if adBreaks[position].ads[adIndex].trackingEvents[eventIndex].duration != incomingEvent.duration {
                        adBreaks[position].ads[adIndex].trackingEvents[eventIndex].duration = incomingEvent.duration
                        changes.resized.append(reference)
                    }
                } else {
                    var event = incomingEvent
                    event.reportingState = .idle
                    event.signalingURLs = incomingEvent.signalingURLs.uniqued()
                    event.currentSignalingURLs = nil
                    // An ad withdrawn stays withdrawn, whatever a later document adds to it.
                    event.heldBack = withdrawn ? .withdrawn : nil
                    let eventIndex = adBreaks[position].ads[adIndex].trackingEvents.count
                    adBreaks[position].ads[adIndex].trackingEvents.append(event)
                    let reference = EventReference(adBreakID: adBreakID, adIndex: adIndex, eventIndex: eventIndex)
                    described.insert(reference)
                    changes.added.append(reference)
                }
            }
        }
    }

    /// Marks withdrawn the known ads that `incoming` leaves out although their start lies in
    /// `dataRange`, when none of their events fired; returns their events. An ad left out because
    /// the data range moved past it is kept as it was, for the late rule and retention.
    private mutating func withdraw(missingFrom incoming: [AdBreak], within dataRange: DataRange) -> [EventReference] {
        let present = Dictionary(incoming.map { ($0.id, Set($0.ads.map(\.id))) }, uniquingKeysWith: { $0.union($1) })
        var withdrawn: [EventReference] = []
        for position in adBreaks.indices {
            let adBreakID = adBreaks[position].id
            for adIndex in adBreaks[position].ads.indices {
                let ad = adBreaks[position].ads[adIndex]
                guard dataRange.start <= ad.startTime, ad.startTime <= dataRange.end, present[adBreakID]?.contains(ad.id) != true, !ad.isWithdrawn,
                    ad.trackingEvents.allSatisfy({ $0.reportingState == .idle })
                else { continue }
                for eventIndex in ad.trackingEvents.indices {
                    adBreaks[position].ads[adIndex].trackingEvents[eventIndex].heldBack = .withdrawn
                    withdrawn.append(EventReference(adBreakID: adBreakID, adIndex: adIndex, eventIndex: eventIndex))
                }
            }
        }
        return withdrawn
    }

    /// Holds back the playback-triggered events not fired yet that their ad, as last described,
    /// does not cover, and releases those it now covers. An event still uncovered once `dataRange`
    /// reaches past its ad is never confirmed.
    package mutating func confirm(within dataRange: DataRange?) -> ConfirmationChanges {
        var changes = ConfirmationChanges()
        for position in adBreaks.indices {
            let adBreakID = adBreaks[position].id
            for adIndex in adBreaks[position].ads.indices {
                let ad = adBreaks[position].ads[adIndex]
                let isFinal = dataRange.map(ad.isFinal(within:)) ?? false
                for (eventIndex, event) in ad.trackingEvents.enumerated()
                where event.event.trigger == .playback && event.reportingState == .idle {
                    let hold: HoldReason?
                    switch event.heldBack {
                    case .withdrawn, .neverConfirmed: continue
                    case .awaitingConfirmation, nil:
                        hold = ad.confirms(event) ? nil : isFinal ? .neverConfirmed : .awaitingConfirmation
                    }
                    guard hold != event.heldBack else { continue }
                    let reference = EventReference(adBreakID: adBreakID, adIndex: adIndex, eventIndex: eventIndex)
                    adBreaks[position].ads[adIndex].trackingEvents[eventIndex].heldBack = hold
                    if hold == nil {
                        changes.confirmed.append(reference)
                    } else if event.heldBack == nil {
                        changes.unconfirmed.append(reference)
                    }
                }
            }
        }
        return changes
    }

    /// Drops ad breaks that ended before `cutoff` and are not in `current`; returns their ids.
    package mutating func prune(endedBefore cutoff: Milliseconds, keeping current: Set<String>) -> Set<String> {
        var removed: Set<String> = []
        adBreaks.removeAll { adBreak in
            let drop = adBreak.endTime < cutoff && !current.contains(adBreak.id)
            if drop { removed.insert(adBreak.id) }
            return drop
        }
        if !removed.isEmpty { reindex() }
        forgottenCount += removed.count
        return removed
    }

    /// The ads whose action window holds `playhead`, with their ad break.
    package func ads(at playhead: Milliseconds) -> [(adBreak: AdBreak, adIndex: Int)] {
        // Ad breaks do not overlap in practice, but an ad break's ads may outrun it: look back a little.
        let after = adBreaks.partitionPoint { $0.startTime <= playhead }
        var found: [(adBreak: AdBreak, adIndex: Int)] = []
        for adBreak in adBreaks[max(0, after - 2)..<after] {
            for (adIndex, ad) in adBreak.ads.enumerated() where ad.actionWindow.contains(playhead) {
                found.append((adBreak, adIndex))
            }
        }
        return found
    }

    /// The stretches of the timeline the ad breaks' durations cover: what ``ContentPosition`` leaves out.
    package var stitchedSpans: [ClosedRange<Milliseconds>] {
        adBreaks.map { $0.startTime...($0.startTime + max($0.duration, 0)) }
    }

    /// The first ad break that starts after `playhead`.
    package func nextAdBreak(after playhead: Milliseconds) -> AdBreak? {
        let index = adBreaks.partitionPoint { $0.startTime <= playhead }
        return index < adBreaks.count ? adBreaks[index] : nil
    }

    private mutating func reindex() {
        adBreaks.sort { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
        positions = Dictionary(uniqueKeysWithValues: adBreaks.enumerated().map { ($1.id, $0) })
    }
}

extension TrackingEvent {
    /// Takes the signaling URLs a document gives: added to those it gave already when the document
    /// repeats the event, else in their place. Those of an event that fired are what was sent:
    /// later ones are only kept to be shown.
    fileprivate mutating func describe(_ urls: [String], repeated: Bool) {
        // Most refreshes repeat the URLs as they were: nothing to change, nothing to allocate.
        if !repeated, currentSignalingURLs == nil, urls == signalingURLs { return }
        let described = repeated ? (currentSignalingURLs ?? signalingURLs) + urls : urls
        if reportingState == .idle {
            signalingURLs = described.uniqued()
            currentSignalingURLs = nil
        } else {
            let shown = described.uniqued()
            currentSignalingURLs = shown == signalingURLs ? nil : shown
        }
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each only once.
    func uniqued() -> [Element] {
        guard count > 1 else { return self }
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
