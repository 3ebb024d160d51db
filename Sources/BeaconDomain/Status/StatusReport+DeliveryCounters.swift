extension StatusReport.Counters {
    /// Counts what deliveries did, as they change, so that status's counters and deliveries agree.
    package mutating func add(_ delivered: DeliveryEffects.Counters) {
        beaconsSent += delivered.sent
        beaconsFailed += delivered.failed
        beaconsRetried += delivered.retried
        beaconsResent += delivered.resent
    }
}
