/// The pure heart of a session: merges metadata, judges playback and decides which tracking
/// events fire. It performs no I/O and reads no clock; callers pass arrival times in.
public struct TrackingSession: Sendable {
    package private(set) var schedule = AdSchedule()
    package internal(set) var dataRange: DataRange?
    package internal(set) var judge = PlaybackJudge()
    package internal(set) var played = PlayedStretches()
    /// The stretch the last accepted tick showed played; nil when that tick only set a baseline (a
    /// first tick, a seek, a tick after an interruption).
    package internal(set) var lastPlayedStretch: ClosedRange<Milliseconds>?
    var pending = PendingWindows()
    /// Events whose ad break left retention unfired, until the daemon takes them (``takeRetired()``).
    private var retired: [UnfiredEvent] = []
    /// What every time of the session is counted on, set by its first metadata document.
    package internal(set) var timeline: Timeline?
    /// Program date time minus media time, when the metadata gives both: ticks of either form are then mapped.
    package private(set) var programDateTimeOffset: Milliseconds?
    /// Where a program-date-time stream's content starts, for the reporters' content position: the
    /// first data range's start, or the first playhead when no metadata came before it. Set once,
    /// so positions already reported never move.
    private var programDateTimeStart: Milliseconds?
    /// How long ad breaks absent from the metadata, and played stretches, are remembered after they end.
    package var retention: Milliseconds
    /// The session's interstitials; in interstitial mode the main playhead fires no ad.
    package internal(set) var interstitials = InterstitialLog()
    /// A session no document sets the timeline of (MediaTailor SGAI) takes it from its first tick's form.
    package var takesTimelineFromTicks = false
    /// A session in MediaTailor's client-side reporting (SGAI) fires its asset lists' `TRACKING`;
    /// any other leaves it to the service, which reports those ads itself.
    package var firesAssetListTracking = false

    public init(retention: Milliseconds) {
        self.retention = retention
    }

    /// Resumes a session from what a restart kept of it (see `SessionSnapshot`). `states` are the
    /// reporting states its deliveries left; every other event is idle. Returns the session and the
    /// events whose window was played but that never fired.
    package static func resuming(
        adBreaks: [AdBreak], dataRange: DataRange?, played: [ClosedRange<Milliseconds>], timeline: Timeline?,
        programDateTimeOffset: Milliseconds?, interstitials: InterstitialLog = InterstitialLog(), states: [EventReference: ReportingState],
        retention: Milliseconds
    ) -> (session: TrackingSession, due: [Firing]) {
        var session = TrackingSession(retention: retention)
        session.interstitials = interstitials
        session.dataRange = dataRange
        session.timeline = timeline
        session.programDateTimeOffset = programDateTimeOffset
        if timeline == .programDateTime { session.programDateTimeStart = dataRange?.start }
        for stretch in played { session.played.insert(stretch) }
        session.schedule = AdSchedule(restoring: adBreaks)
        let references = session.schedule.references
        for reference in references { session.schedule.setReportingState(states[reference] ?? .idle, of: reference) }
        // A snapshot of an earlier release holds no confirmation: the pass leaves any other unchanged.
        _ = session.schedule.confirm(within: dataRange)
        var due: [EventReference] = []
        for reference in references { session.index(reference, into: &due) }
        // Fired before the session is returned, so that it holds them as connecting.
        let firings = session.fire(due)
        return (session, firings)
    }

    /// Playback-triggered events not fired yet.
    public var pendingCount: Int { pending.count }

    /// Why `document` cannot be merged into this session: it is on another timeline than the first one.
    package func timelineMismatch(of document: MetadataDocument) -> String? {
        guard let timeline, document.timeline != timeline else { return nil }
        return "the document is on \(document.timeline.rawValue), the session on \(timeline.rawValue)"
    }

    /// Puts a tick on the session's timeline, or says why it cannot be (see ``TickPlacement``).
    package func placed(_ tick: PlayheadTick) -> Result<PlacedTick, TickRefusal> {
        TickPlacement.place(tick, on: timeline, offset: programDateTimeOffset)
    }

    /// The last position without the stitched ad breaks before it, on a media-time session; nil on
    /// program date time, where a live window forgets its early breaks and no position counts from a start.
    package var contentPosition: Milliseconds? {
        guard timeline == .mediaTime, let playhead = contentPlayhead else { return nil }
        return ContentPosition.of(playhead, breaks: stitchedSpans)
    }

    /// The playhead of the content: while an interstitial plays, its place, where the main player waits.
    private var contentPlayhead: Milliseconds? {
        interstitials.current.map(\.place) ?? judge.lastPlayhead
    }

    /// The ad breaks the content excludes: none in interstitial mode, where the ads are not in the stream.
    private var stitchedSpans: [ClosedRange<Milliseconds>] {
        interstitials.isOn ? [] : schedule.stitchedSpans
    }

    /// The content position as the reporters read it for a stream that has a start (a VOD's
    /// bookmark, Adobe's VOD playhead): ``contentPosition`` on media time; on program date time the
    /// same count from where the content starts (an HLS VOD with `EXT-X-PROGRAM-DATE-TIME`).
    package var reportedContentPosition: Milliseconds? {
        guard timeline != .mediaTime else { return contentPosition }
        guard let start = programDateTimeStart, let playhead = contentPlayhead else { return nil }
        let spans = stitchedSpans
        return max(0, ContentPosition.of(playhead, breaks: spans) - ContentPosition.of(start, breaks: spans))
    }

    /// Merges a metadata refresh; returns events whose window was already played (late metadata).
    /// The first document sets the session's timeline; one on another (``timelineMismatch(of:)``) changes nothing.
    public mutating func apply(_ document: MetadataDocument) -> [Firing] {
        guard timelineMismatch(of: document) == nil else { return [] }
        timeline = document.timeline
        programDateTimeOffset = document.programDateTimeOffset
        if document.timeline == .programDateTime, programDateTimeStart == nil { programDateTimeStart = document.dataRange.start }
        dataRange = document.dataRange
        return merge(document.adBreaks, within: document.dataRange)
    }

    /// Merges ad breaks described within `range`; returns events whose window was already played.
    mutating func merge(_ adBreaks: [AdBreak], within range: DataRange) -> [Firing] {
        // Forget what is past retention first, so a late event is only matched against stretches still remembered.
        let cutoff = max(judge.lastPlayhead ?? .min, range.end) - retention
        // Why the events about to leave never fired, judged while what was played around them is remembered.
        let current = Set(adBreaks.map(\.id))
        let leaving = Set(schedule.adBreaks.lazy.filter { $0.endTime < cutoff && !current.contains($0.id) }.map(\.id))
        if !leaving.isEmpty { retired += unfired(inAdBreaks: leaving) }
        played.prune(endingBefore: cutoff)
        let changes = schedule.merge(adBreaks, within: range)
        let confirmation = schedule.confirm(within: range)
        // Whatever may sit in the index with an outdated window or hold is taken out, then indexed anew.
        let outdated = Set(changes.resized + changes.withdrawn + confirmation.unconfirmed)
        if !outdated.isEmpty { pending.remove(outdated) }
        var indexed: Set<EventReference> = []
        var due: [EventReference] = []
        for reference in changes.resized + changes.added + confirmation.confirmed where indexed.insert(reference).inserted {
            index(reference, into: &due)
        }
        let dropped = schedule.prune(endedBefore: cutoff, keeping: current)
        if !dropped.isEmpty { pending.removeAll(inAdBreaks: dropped) }
        return fire(due)
    }

    private mutating func index(_ reference: EventReference, into due: inout [EventReference]) {
        guard let event = schedule[reference], event.event.trigger == .playback, event.reportingState == .idle, event.heldBack == nil
        else { return }
        if interstitials.isOn ? interstitialPlayed(reference, event.window) : played.intersects(event.window) {
            due.append(reference)
        } else {
            pending.insert(event.window, for: reference)
        }
    }

    /// Takes a playhead tick; returns the events whose window the newly played stretch covers.
    /// A tick the session refuses (see ``placed(_:)``) changes nothing.
    public mutating func observe(_ tick: PlayheadTick, arrivalTime: Milliseconds) -> [Firing] {
        guard case .success(let placed) = placed(tick) else { return [] }
        return observe(placed, arrivalTime: arrivalTime)
    }

    /// Takes a tick already on the session's timeline; returns the events whose window the newly
    /// played stretch covers.
    package mutating func observe(_ placed: PlacedTick, arrivalTime: Milliseconds) -> [Firing] {
        if timeline == nil, takesTimelineFromTicks { timeline = placed.tick.timeline }
        // The main player waits at the interstitial's date: its ticks meanwhile judge nothing.
        guard interstitials.currentID == nil else { return [] }
        lastPlayedStretch = judge.observe(placed.tick, arrivalTime: arrivalTime)
        // In interstitial mode the main stream is content: its ticks fire no ad.
        guard !interstitials.isOn else { return [] }
        if placed.tick.timeline == .programDateTime, programDateTimeStart == nil { programDateTimeStart = placed.tick.playhead }
        guard let stretch = lastPlayedStretch else { return [] }
        played.insert(stretch)
        return fire(pending.takeDue(overlapping: stretch))
    }

    /// Takes a player event that arrived at `arrivalTime`, if known; a pause, or a play after a
    /// pause, fires `pause` or `resume` of the ad being played.
    public mutating func observe(_ event: PlayerEvent, arrivalTime: Milliseconds? = nil) -> [Firing] {
        let wasPaused = judge.isPaused
        guard judge.observe(event, arrivalTime: arrivalTime) else { return [] }
        switch event {
        case .pause: return fireActions([.pause])
        case .play where wasPaused: return fireActions([.resume])
        default: return []
        }
    }

    /// Takes a user action; fires its events in the ad being played, every time.
    package mutating func observe(_ action: UserAction) -> [Firing] {
        fireActions(action.eventTypes)
    }

    /// The events that left retention unfired since the last call, and why.
    package mutating func takeRetired() -> [UnfiredEvent] {
        defer { retired = [] }
        return retired
    }

    /// Records how the delivery of a fired event ended.
    package mutating func record(_ state: ReportingState, for reference: EventReference) {
        schedule.setReportingState(state, of: reference)
    }

    private mutating func fireActions(_ types: [TrackingEventType]) -> [Firing] {
        guard let playhead = judge.lastPlayhead else { return [] }
        var due: [EventReference] = []
        // In interstitial mode the ad being played is the current asset's, and no other.
        let playing = interstitials.isOn ? currentInterstitialAd().map { [$0] } ?? [] : schedule.ads(at: playhead)
        for (adBreak, adIndex) in playing where !adBreak.ads[adIndex].isWithdrawn {
            for (eventIndex, event) in adBreak.ads[adIndex].trackingEvents.enumerated() where types.contains(event.event) {
                due.append(EventReference(adBreakID: adBreak.id, adIndex: adIndex, eventIndex: eventIndex))
            }
        }
        return fire(due)
    }

    mutating func fire(_ references: [EventReference]) -> [Firing] {
        // An impression brings its ad's verificationNotExecuted along.
        (references + VerificationNotExecuted.due(withImpressionsOf: references, in: schedule)).compactMap { reference in
            guard let event = schedule[reference], let ad = schedule.ad(containing: reference) else { return nil }
            schedule.setReportingState(.connecting, of: reference)
            return Firing(reference: reference, adBreakID: reference.adBreakID, adID: ad.id, event: event.event, eventStart: event.startTime,
                signalingURLs: event.signalingURLs)
        }
    }
}
