/// HLS interstitials on the session's one timeline: while an interstitial plays, the playhead the
/// matcher sees is its place plus the durations of the assets played before the current one plus
/// the position inside it, so the same rules fire its ads as stitched ones. Each asset is its own
/// ad (the ad break the interstitial covers, its ad of the same index): an asset's ticks fire only
/// that ad's events, and only they count as its playing.
extension TrackingSession {
    /// What an interstitial line did.
    package struct InterstitialStep: Sendable {
        package var firings: [Firing] = []
        /// The tick it amounts to on the session's timeline (an asset's start, a position), for the ad lifecycle.
        package var placed: PlacedTick?
    }

    /// Takes an interstitial line that arrived at `arrivalTime`; one that names no interstitial or
    /// asset the session was told of is refused, changing nothing.
    package mutating func observe(_ command: InterstitialCommand, arrivalTime: Milliseconds) -> Result<InterstitialStep, TickRefusal> {
        switch command {
        case .start(let start): return begin(start)
        case .asset(let asset): return startAsset(asset, arrivalTime: arrivalTime)
        case .tick(let tick):
            return observeInside(tick.id, asset: tick.asset, position: tick.position, observedAt: tick.observedAt, rate: tick.rate, arrivalTime: arrivalTime)
        case .end(let end): return finish(end)
        }
    }

    /// Interstitial mode from the start (the `load` option): the main playhead fires no ad.
    package mutating func enterInterstitialMode() {
        interstitials.switchOn()
    }

    /// The ad break `event` covers, and the ad its asset `index` plays: the ad break's ads in
    /// order of start, MediaTailor's avail tracking (no ad) left out.
    package func ad(of event: InterstitialState, asset index: Int) -> (adBreak: AdBreak, adIndex: Int)? {
        guard let adBreak = coveredAdBreak(of: event) else { return nil }
        let ads = Self.adIndices(of: adBreak)
        return ads.indices.contains(index) ? (adBreak, ads[index]) : nil
    }

    /// The ad break within ``InterstitialLog/coverTolerance`` of the interstitial's place, the nearest.
    package func coveredAdBreak(of event: InterstitialState) -> AdBreak? {
        schedule.adBreaks.filter { abs($0.startTime - event.place) <= InterstitialLog.coverTolerance }
            .min { abs($0.startTime - event.place) < abs($1.startTime - event.place) }
    }

    /// The indices of an ad break's ads, in order of start; its avail tracking is none of them.
    static func adIndices(of adBreak: AdBreak) -> [Int] {
        adBreak.ads.indices.filter { adBreak.ads[$0].id != MediaTailorDocument.adBreakTrackingAdID }
            .sorted { adBreak.ads[$0].startTime < adBreak.ads[$1].startTime }
    }

    /// The ad the current interstitial's current asset plays, if any.
    func currentInterstitialAd() -> (adBreak: AdBreak, adIndex: Int)? {
        guard let event = interstitials.current, let asset = event.current else { return nil }
        return ad(of: event, asset: asset)
    }

    /// Whether the interstitial covering `reference`'s ad break played its window, in the asset of
    /// its ad (any asset, for the ad break's own tracking).
    func interstitialPlayed(_ reference: EventReference, _ window: ClosedRange<Milliseconds>) -> Bool {
        guard let adBreak = schedule.adBreak(id: reference.adBreakID), let event = interstitials.covering(adBreakStartingAt: adBreak.startTime)
        else { return false }
        guard let asset = Self.adIndices(of: adBreak).firstIndex(of: reference.adIndex) else {
            return event.assets.contains { $0.played.intersects(window) }
        }
        return event.assets.indices.contains(asset) && event.assets[asset].played.intersects(window)
    }

    // MARK: The lines

    private mutating func begin(_ start: InterstitialStart) -> Result<InterstitialStep, TickRefusal> {
        let place: PlacedTick
        switch placement(of: start) {
        case .success(let placed): place = placed
        case .failure(let refusal): return .failure(refusal)
        }
        var event = interstitials[start.id] ?? InterstitialState(id: start.id, place: place.tick.playhead, resumeOffset: start.resumeOffset)
        var tracking: MetadataDocument?
        if let list = start.assetList {
            for (index, asset) in list.assets.enumerated() {
                event.grow(to: index)
                event.assets[index].listedDuration = asset.duration
                if event.assets[index].uri == nil { event.assets[index].uri = asset.uri }
            }
            tracking = firesAssetListTracking ? list.tracking : nil
            event.hasAssetListTracking = tracking != nil
            event.trackingProblem = list.tracking != nil && !firesAssetListTracking
                ? "the session is not in MediaTailor's client-side reporting (no SGAI session): the service reports its ads itself"
                : list.trackingProblem
        }
        interstitials.begin(event)
        var step = InterstitialStep()
        if let tracking { step.firings = placeTracking(tracking, at: event.place, on: place.tick.timeline) }
        return .success(step)
    }

    /// The interstitial's place on the session's timeline: `start` on program date time, `position`
    /// on media time; the other form only where the metadata maps it.
    private func placement(of start: InterstitialStart) -> Result<PlacedTick, TickRefusal> {
        let dated = start.start.map { PlayheadTick(playhead: $0, timeline: .programDateTime) }
        let positioned = start.position.map { PlayheadTick(playhead: $0, timeline: .mediaTime) }
        let preferred: PlayheadTick? = switch timeline {
        case .mediaTime?: positioned ?? dated
        case .programDateTime?: dated ?? positioned
        case nil: dated ?? positioned
        }
        guard let preferred else { return .failure(TickRefusal("interstitial-start needs \"start\" (a date) or \"position\" (seconds)")) }
        return TickPlacement.place(preferred, on: timeline, offset: programDateTimeOffset)
    }

    /// An asset list's `TRACKING` section, moved so that its first ad break starts at the
    /// interstitial's place (a section written from 0 and one on the session's media time land
    /// alike), merged as metadata; returns what its late events fire.
    private mutating func placeTracking(_ document: MetadataDocument, at place: Milliseconds, on form: Timeline) -> [Firing] {
        let first = document.adBreaks.map(\.startTime).min() ?? document.dataRange.start
        let adBreaks = document.adBreaks.map { $0.shifted(by: place - first) }
        let end = adBreaks.map(\.endTime).max() ?? place
        let range = DataRange(start: place, end: max(place, end))
        if timeline == nil { timeline = form }
        // A session whose only metadata are its asset lists covers what they described.
        dataRange = dataRange.map { DataRange(start: min($0.start, range.start), end: max($0.end, range.end)) } ?? range
        return merge(adBreaks, within: range)
    }

    private mutating func startAsset(_ asset: InterstitialAssetStart, arrivalTime: Milliseconds) -> Result<InterstitialStep, TickRefusal> {
        guard let event = interstitials.current, event.id == asset.id else {
            return .failure(TickRefusal("interstitial-asset for '\(asset.id.prefix(64))': no interstitial of that id is playing (send interstitial-start first)"))
        }
        var firings: [Firing] = []
        // The asset before it played to its end.
        if let previous = event.current, previous < asset.index { firings += playedToEnd(event.id, asset: previous) }
        interstitials.update(event.id) { event in
            event.grow(to: asset.index)
            event.assets[asset.index].started = true
            if let duration = asset.duration { event.assets[asset.index].announcedDuration = duration }
            if let uri = asset.uri { event.assets[asset.index].uri = uri }
            event.current = asset.index
        }
        // The asset's start carries no time: on the player's clock it takes the last tick's, so the
        // stretch to its first position tick is judged like any other.
        return observeInside(asset.id, asset: asset.index, position: 0, observedAt: judge.lastPlayerClockTime, rate: nil, arrivalTime: arrivalTime).map { step in
            var step = step
            step.firings = firings + step.firings
            return step
        }
    }

    private mutating func observeInside(
        _ id: String, asset index: Int, position: Milliseconds, observedAt: Milliseconds?, rate: Double?, arrivalTime: Milliseconds
    ) -> Result<InterstitialStep, TickRefusal> {
        guard let event = interstitials.current, event.id == id else {
            return .failure(TickRefusal("no interstitial '\(id.prefix(64))' is playing"))
        }
        guard event.assets.indices.contains(index), event.assets[index].started else {
            return .failure(TickRefusal("asset \(index) of interstitial '\(id.prefix(64))' was not announced (send interstitial-asset)"))
        }
        guard event.current == index else {
            return .failure(TickRefusal("asset \(index) of interstitial '\(id.prefix(64))' is not the one playing (asset \(event.current.map(String.init) ?? "none") is)"))
        }
        guard let span = event.span(of: index) else {
            return .failure(TickRefusal("an asset before asset \(index) of interstitial '\(id.prefix(64))' has no duration: announce it in interstitial-asset"))
        }
        let tick = PlayheadTick(playhead: span.lowerBound + position, observedAt: observedAt, rate: rate, timeline: timeline ?? .programDateTime)
        lastPlayedStretch = judge.observe(tick, arrivalTime: arrivalTime)
        let reachedEnd = event.assets[index].duration.map { position >= $0 } ?? false
        interstitials.update(id) { $0.position = position }
        var step = InterstitialStep(placed: PlacedTick(tick))
        if let stretch = lastPlayedStretch {
            record(stretch, of: id, asset: index, within: span)
            step.firings = fire(pending.takeDue(overlapping: stretch, only: scope(event, asset: index)))
        }
        if reachedEnd { step.firings += playedToEnd(id, asset: index) }
        return .success(step)
    }

    private mutating func finish(_ end: InterstitialEnd) -> Result<InterstitialStep, TickRefusal> {
        guard let event = interstitials.current, event.id == end.id else {
            return .failure(TickRefusal("interstitial-end for '\(end.id.prefix(64))': no interstitial of that id is playing"))
        }
        var step = InterstitialStep()
        // Completed, the asset playing played to its end; skipped or in error, it ends where it was.
        if end.reason == .completed, let current = event.current { step.firings = playedToEnd(event.id, asset: current) }
        interstitials.finish(event.id, reason: end.reason)
        return .success(step)
    }

    /// Asset `index` played from its last position to its end (and to its ad's end, should the
    /// metadata make the ad a little longer): its remaining events fire.
    private mutating func playedToEnd(_ id: String, asset index: Int) -> [Firing] {
        guard let event = interstitials[id], event.assets.indices.contains(index), !event.assets[index].playedToEnd else { return [] }
        interstitials.update(id) { $0.assets[index].playedToEnd = true }
        guard let span = event.span(of: index), event.assets[index].duration != nil else { return [] }
        let from = event.current == index ? span.lowerBound + (event.position ?? 0) : span.lowerBound
        let adEnd = ad(of: event, asset: index).map { $0.adBreak.ads[$0.adIndex].startTime + $0.adBreak.ads[$0.adIndex].duration } ?? span.upperBound
        let stretch = min(from, span.upperBound)...max(span.upperBound, adEnd)
        record(stretch, of: id, asset: index, within: span.lowerBound...stretch.upperBound)
        return fire(pending.takeDue(overlapping: stretch, only: scope(event, asset: index)))
    }

    /// Keeps what of `stretch` lies in the asset, as the asset's played stretches (for the late rule).
    private mutating func record(_ stretch: ClosedRange<Milliseconds>, of id: String, asset index: Int, within span: ClosedRange<Milliseconds>) {
        guard stretch.overlaps(span) else { return }
        let inside = max(stretch.lowerBound, span.lowerBound)...min(stretch.upperBound, span.upperBound)
        interstitials.update(id) { $0.assets[index].played.insert(inside) }
    }

    /// The events asset `index` may fire: those of its own ad, and the ad break's own tracking.
    private func scope(_ event: InterstitialState, asset index: Int) -> (EventReference) -> Bool {
        guard let adBreak = coveredAdBreak(of: event) else { return { _ in false } }
        let ads = Self.adIndices(of: adBreak)
        let own = ads.indices.contains(index) ? ads[index] : nil
        let adBreakID = adBreak.id
        let breakTracking = Set(adBreak.ads.indices).subtracting(ads)
        return { $0.adBreakID == adBreakID && ($0.adIndex == own || breakTracking.contains($0.adIndex)) }
    }
}
