/// What the daemon knows at one instant, as it hands it out for `status`: its own values,
/// copied under the actor (the session's schedule and the deliveries are copy-on-write, so taking
/// one copies nothing). ``StatusReport/init(_:)`` reads it outside the actor.
package struct DaemonSnapshot: Sendable {
    /// Where the daemon is with its session.
    package enum Phase: Sendable {
        case idle
        case initializing
        /// Init failed for good, for this reason.
        case failed(reason: String)
        case ready(Session)
    }

    /// The session being played.
    package struct Session: Sendable {
        package var endpoints: SessionEndpoints
        package var tracking: TrackingSession
        package var metadataFailures: Int
        /// A monotonic instant; nil while a request is under way.
        package var nextMetadataAt: Milliseconds?
        /// The ad break and ad the playhead is in.
        package var adPlacement: AdPlacement?

        package init(
            endpoints: SessionEndpoints, tracking: TrackingSession, metadataFailures: Int = 0, nextMetadataAt: Milliseconds? = nil,
            adPlacement: AdPlacement? = nil
        ) {
            self.endpoints = endpoints
            self.tracking = tracking
            self.metadataFailures = metadataFailures
            self.nextMetadataAt = nextMetadataAt
            self.adPlacement = adPlacement
        }
    }

    package var version: String
    package var phase: Phase
    /// When the last tick came and the last metadata was applied, on the wall clock.
    package var lastTickAt: Milliseconds?
    package var lastMetadataAt: Milliseconds?
    package var counters = StatusReport.Counters()
    /// The last error of session init or metadata.
    package var lastError: String?
    package var initFailures = 0
    /// A monotonic instant.
    package var nextInitAt: Milliseconds?
    /// Wall clock minus the monotonic instant, as it reads now: what shows a schedule.
    package var wallOffset: Milliseconds = 0
    /// Every delivery the daemon keeps, of any session.
    package var deliveries: [BeaconDelivery.Key: BeaconDelivery] = [:]
    package var journal = StatusReport.Journal(state: .off)

    package init(version: String, phase: Phase) {
        self.version = version
        self.phase = phase
    }
}
