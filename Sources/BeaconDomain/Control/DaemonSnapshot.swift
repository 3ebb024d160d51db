/// What the daemon knows at one instant, as it hands it out for `status`: its own values, read
/// under the actor and copied (the schedule and the deliveries are copy-on-write, so taking one
/// costs no copy). ``StatusReport/init(_:)`` reads it outside the actor.
package struct DaemonSnapshot: Sendable {
    /// Where the daemon is with its session.
    package enum Phase: Sendable, Equatable {
        case idle
        case initializing
        /// Init failed for good, for this reason.
        case failed(reason: String)
        /// A session is ready; the player is in this state.
        case playing(PlaybackJudge.State)
    }

    package var version: String
    package var phase: Phase
    package var session: SessionEndpoints?
    package var playhead: Milliseconds?
    /// Wall clock, as shown.
    package var lastTickAt: Milliseconds?
    /// Wall clock, as shown.
    package var lastMetadataAt: Milliseconds?
    package var dataRange: DataRange?
    package var adBreaks: [Pod]
    package var counters: StatusReport.Counters
    /// The last error of session init or metadata.
    package var lastError: String?
    package var metadataFailures: Int
    /// A monotonic instant.
    package var nextMetadataAt: Milliseconds?
    package var initFailures: Int
    /// A monotonic instant.
    package var nextInitAt: Milliseconds?
    /// Wall clock minus the monotonic instant, as it reads now: what shows a schedule.
    package var wallOffset: Milliseconds
    /// Every delivery the daemon keeps, of any session.
    package var deliveries: [BeaconDelivery.Key: BeaconDelivery]
    package var journal: StatusReport.Journal
    package var timeline: Timeline?
    package var contentPosition: Milliseconds?

    package init(
        version: String, phase: Phase, session: SessionEndpoints? = nil, playhead: Milliseconds? = nil, lastTickAt: Milliseconds? = nil,
        lastMetadataAt: Milliseconds? = nil, dataRange: DataRange? = nil, adBreaks: [Pod] = [], counters: StatusReport.Counters = .init(),
        lastError: String? = nil, metadataFailures: Int = 0, nextMetadataAt: Milliseconds? = nil, initFailures: Int = 0,
        nextInitAt: Milliseconds? = nil, wallOffset: Milliseconds = 0, deliveries: [BeaconDelivery.Key: BeaconDelivery] = [:],
        journal: StatusReport.Journal = StatusReport.Journal(state: .off), timeline: Timeline? = nil, contentPosition: Milliseconds? = nil
    ) {
        self.version = version
        self.phase = phase
        self.session = session
        self.playhead = playhead
        self.lastTickAt = lastTickAt
        self.lastMetadataAt = lastMetadataAt
        self.dataRange = dataRange
        self.adBreaks = adBreaks
        self.counters = counters
        self.lastError = lastError
        self.metadataFailures = metadataFailures
        self.nextMetadataAt = nextMetadataAt
        self.initFailures = initFailures
        self.nextInitAt = nextInitAt
        self.wallOffset = wallOffset
        self.deliveries = deliveries
        self.journal = journal
        self.timeline = timeline
        self.contentPosition = contentPosition
    }
}
