/// What the delivery coordinator decided, for the runtime to carry out in this order: write
/// `persist` in one transaction; once that write is acknowledged, request `start`; then log
/// `ended`, report `finished` and add `counters`; then sleep until `nextWake`.
public struct DeliveryEffects: Sendable, Equatable {
    /// Deliveries whose new state goes to the journal, the ones about to start already in flight.
    public var persist: [BeaconDelivery] = []
    /// Deliveries whose request may leave once `persist` is on disk, oldest first.
    public var start: [BeaconDelivery] = []
    /// Requests that ended (or deliveries given up without one), with the line that logs each.
    public var ended: [EndedRequest] = []
    /// Firings whose every signaling URL finished: the tracking event's reporting state.
    public var finished: [FinishedFiring] = []
    public var counters = Counters()
    /// When time alone lets a waiting delivery start: the earliest backoff end after the instant
    /// these effects were decided at, reckoned at that same instant so a retry falling due in
    /// between is never passed over. Nil when only a finishing request can start what waits.
    public var nextWake: Milliseconds?

    public init() {}

    /// A request that ended, or a delivery given up before its request.
    public struct EndedRequest: Sendable, Equatable {
        public var delivery: BeaconDelivery
        public var result: RequestResult
        /// The delivery is due again and the daemon is not draining: a retry to announce.
        public var retrying: Bool
        public var line: BeaconLogLine
    }

    /// A firing of a tracking event whose deliveries all finished.
    public struct FinishedFiring: Sendable, Equatable {
        /// The journal key of the session the firing belongs to.
        public var sessionKey: String
        public var firing: Firing
        /// The last result of each signaling URL, in the order of `firing.signalingURLs`.
        public var results: [RequestResult]
        public var state: ReportingState
    }

    /// What to add to the daemon's counters.
    public struct Counters: Sendable, Equatable {
        public var sent = 0
        public var failed = 0
        public var retried = 0
        public var resent = 0
    }
}
