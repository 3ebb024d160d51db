/// Which ad break and ad the playhead is in, told as it enters and leaves them: the ad lifecycle
/// that players, the event history and media analytics hear of (``AdLifecycleEvent``).
///
/// Fed each tick the session accepted, whether the move to it was played, and the session's ad
/// schedule, it returns what the move did, in order: the ad left (completed or skipped), its ad
/// break left, the ad break entered, the ad entered. Ads are always bookended by their ad break;
/// an ad break or an ad the playhead jumped over entirely gives nothing.
///
/// An ad is left completed when the playhead reached its end: the stretch played to leave it
/// covers its end, or the last playhead inside it was within ``completionTolerance`` of it (a
/// player ticking once a second seldom reports an ad's last millisecond). Any other way out skips
/// it: a seek or a jump, the ad withdrawn from the metadata while the playhead is in it, the
/// session ending before its end (``end()``). An ad the metadata moves or resizes is judged by its
/// latest description.
///
/// An ad break spans its duration, or its ads if they run longer; an ad its own duration. Ads
/// withdrawn from the metadata, and MediaTailor's avail tracking (not an ad), are no ads here; an
/// ad break whose every ad was withdrawn is no ad break.
package struct AdLifecycle: Sendable, Equatable {
    /// How close to its end the last playhead inside an ad may be for the ad to count as completed
    /// (at most half the ad, so that a brief ad is not completed by a glimpse).
    package static let completionTolerance: Milliseconds = 1000

    /// The ad break and ad the playhead is in, as of the last tick.
    package private(set) var placement: AdPlacement?
    private var lastPlayhead: Milliseconds?
    /// The playback's first playhead, and its timeline: where a program-date-time content offset counts from.
    private var origin: Milliseconds?
    private var originTimeline: Timeline?

    package init() {}

    /// Takes a tick the session accepted, on the session's timeline; `played` is the stretch the
    /// tick showed played (nil for a seek, a jump or a first tick). Returns what the move did.
    package mutating func observe(_ tick: PlayheadTick, played: ClosedRange<Milliseconds>?, in schedule: AdSchedule) -> [AdLifecycleEvent] {
        let playhead = tick.playhead
        if originTimeline != tick.timeline {
            origin = playhead
            originTimeline = tick.timeline
        }
        let found = Self.locate(playhead, in: schedule)
        var events: [AdLifecycleEvent] = []
        if let open = placement {
            if let ad = open.ad, found?.adBreak.id != open.adBreak.id || found?.ad?.id != ad.id {
                let left = Self.latest(ad, in: schedule)
                events.append(Self.reachedEnd(of: left, from: lastPlayhead, played: played) ? .adCompleted(left) : .adSkipped(left))
            }
            if found?.adBreak.id != open.adBreak.id { events.append(.adBreakCompleted(open.adBreak)) }
        }
        let previous = placement
        placement = found.map { found in
            var adBreak = found.adBreak
            // What numbers and places an ad break is kept from its start: a later refresh may renumber the window.
            if let kept = previous?.adBreak, kept.id == adBreak.id {
                adBreak.index = kept.index
                adBreak.contentOffset = kept.contentOffset
            } else {
                adBreak.contentOffset = contentOffset(of: adBreak.startTime, timeline: tick.timeline, in: schedule)
            }
            return AdPlacement(
                adBreak: adBreak, ad: found.ad, offsetInAdBreak: playhead - adBreak.startTime, offsetInAd: found.ad.map { playhead - $0.startTime })
        }
        if let entered = placement {
            if entered.adBreak.id != previous?.adBreak.id { events.append(.adBreakStarted(entered.adBreak)) }
            if let ad = entered.ad, entered.adBreak.id != previous?.adBreak.id || ad.id != previous?.ad?.id { events.append(.adStarted(ad)) }
        }
        lastPlayhead = playhead
        return events
    }

    /// The session ends (unload, a new load, the end of input, the drain): the open ad is left,
    /// completed if the last playhead reached its end, and its ad break completed, so that every
    /// start has its end.
    package mutating func end() -> [AdLifecycleEvent] {
        guard let open = placement else { return [] }
        placement = nil
        var events: [AdLifecycleEvent] = []
        if let ad = open.ad {
            events.append(Self.reachedEnd(of: ad, from: lastPlayhead, played: nil) ? .adCompleted(ad) : .adSkipped(ad))
        }
        events.append(.adBreakCompleted(open.adBreak))
        return events
    }

    /// Whether the playhead reached `ad`'s end: `played` (the stretch that left it) covers it, or
    /// `last`, the last playhead inside it, was close enough.
    private static func reachedEnd(of ad: AdSummary, from last: Milliseconds?, played: ClosedRange<Milliseconds>?) -> Bool {
        let end = ad.startTime + ad.duration
        if let played, played.upperBound >= end { return true }
        guard let last else { return false }
        return last >= end - min(completionTolerance, ad.duration / 2)
    }

    /// `ad` as the schedule now describes it, or as it was last seen when the schedule no longer has it.
    private static func latest(_ ad: AdSummary, in schedule: AdSchedule) -> AdSummary {
        guard let adBreak = schedule.adBreak(id: ad.adBreakID), let current = adBreak.ads.first(where: { $0.id == ad.id }), !current.isWithdrawn
        else { return ad }
        return AdSummary(current, adBreakID: ad.adBreakID, position: ad.position)
    }

    /// Where an ad break starting at `start` sits in the content, in seconds: ad breaks excluded,
    /// from the start of the stream on media time, from the playback's first playhead on program
    /// date time (a live stream has no start); 0 for an ad break before that playhead.
    private func contentOffset(of start: Milliseconds, timeline: Timeline, in schedule: AdSchedule) -> Double {
        let spans = schedule.stitchedSpans
        let from = timeline == .programDateTime ? ContentPosition.of(origin ?? start, breaks: spans) : 0
        return Double(max(0, ContentPosition.of(start, breaks: spans) - from)) / 1000
    }

    /// The ad break holding `playhead`, and the ad in it that does, if any. Looks at the last two
    /// ad breaks starting before it (an ad break's ads may outrun the next one's start): log(n).
    private static func locate(_ playhead: Milliseconds, in schedule: AdSchedule) -> (adBreak: AdBreakSummary, ad: AdSummary?)? {
        let adBreaks = schedule.adBreaks
        let after = adBreaks.partitionPoint { $0.startTime <= playhead }
        for position in stride(from: after - 1, through: max(0, after - 2), by: -1) {
            let adBreak = adBreaks[position]
            let ads = adBreak.ads.filter { !$0.isWithdrawn && $0.id != MediaTailorDocument.adBreakTrackingAdID }.sorted { $0.startTime < $1.startTime }
            if !adBreak.ads.isEmpty, ads.isEmpty, adBreak.ads.contains(where: \.isWithdrawn) { continue }
            let end = ads.reduce(adBreak.startTime + max(adBreak.duration, 0)) { max($0, $1.startTime + max($1.duration, 0)) }
            guard playhead < end else { continue }
            let summary = AdBreakSummary(
                id: adBreak.id, index: schedule.forgottenCount + position + 1, startTime: adBreak.startTime, duration: adBreak.duration, contentOffset: 0)
            let ad = ads.firstIndex { $0.startTime <= playhead && playhead < $0.startTime + $0.duration }.map {
                AdSummary(ads[$0], adBreakID: adBreak.id, position: $0 + 1)
            }
            return (summary, ad)
        }
        return nil
    }
}

extension AdSummary {
    /// `ad` of the ad break `adBreakID`, at `position` in it.
    init(_ ad: Ad, adBreakID: String, position: Int) {
        self.init(
            id: ad.id, adBreakID: adBreakID, position: position, startTime: ad.startTime, duration: ad.duration, title: ad.title,
            creativeID: ad.creativeID, adSystem: ad.adSystem)
    }
}
