/// What a tracking event's audit record says became of it: the values of `beaconctl audit --outcome`.
package enum AuditOutcome: String, Sendable, Codable, CaseIterable {
    /// A request of a signaling URL was answered 2xx.
    case delivered
    /// A request did not deliver (it may be retried).
    case failed
    /// A signaling URL was given up: a status not retried, a refused URL, or past the beacon max age.
    case givenUp = "given-up"
    /// The event never fired, or fired and sent nothing (quiet, beacons disabled).
    case notFired = "not-fired"
}
