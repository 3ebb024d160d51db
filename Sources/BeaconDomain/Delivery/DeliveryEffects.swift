/// What the delivery coordinator decided, for the runtime to carry out in this order: write
/// `persist` in one transaction; once that write is acknowledged, request `start`; then log
/// `ended`, report `finished` and add `counters`; then sleep until `nextWake`.
package struct DeliveryEffects: Sendable, Equatable {
    /// Deliveries whose new state goes to the journal, the ones about to start already in flight.
    package var persist: [BeaconDelivery] = []
    /// Deliveries whose request may leave once `persist` is on disk, oldest first.
    package var start: [BeaconDelivery] = []
    /// Requests that ended (or deliveries given up without one), with the line that logs each.
    package var ended: [EndedRequest] = []
    /// Firings whose every signaling URL finished: the tracking event's reporting state.
    package var finished: [FinishedFiring] = []
    package var counters = Counters()
    /// When time alone lets a waiting delivery start: the earliest backoff end after the instant
    /// these effects were decided at, reckoned at that same instant so a retry falling due in
    /// between is never passed over. Nil when only a finishing request can start what waits.
    package var nextWake: Milliseconds?

    package init() {}

    /// A request that ended, or a delivery given up before its request.
    package struct EndedRequest: Sendable, Equatable {
        package var delivery: BeaconDelivery
        package var result: RequestResult
        /// The delivery is due again and the daemon is not draining: a retry to announce.
        package var retrying: Bool
        /// A request ended; false for a delivery given up past the max age without one.
        package var attempted = true
        /// The request was a re-send: one was on the wire when the daemon stopped before.
        package var resend = false
        package var line: BeaconLogLine
    }

    /// A firing of a tracking event whose deliveries all finished.
    package struct FinishedFiring: Sendable, Equatable {
        /// The journal key of the session the firing belongs to.
        package var sessionKey: String
        package var firing: Firing
        /// The last result of each signaling URL, in the order of `firing.signalingURLs`.
        package var results: [RequestResult]
        package var state: ReportingState
    }

    /// What to add to the daemon's counters.
    package struct Counters: Sendable, Equatable {
        package var sent = 0
        package var failed = 0
        package var retried = 0
        package var resent = 0
    }
}
