import BeaconDomain

extension BeaconDaemon {
    /// Everything the daemon knows and did, as `status` shows it: assembled by the caller, from
    /// the snapshot the actor hands out once it has tried its journal.
    package nonisolated func statusReport() async -> StatusReport {
        StatusReport(await snapshotOnceStarted())
    }
}
