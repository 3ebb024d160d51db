extension DaemonSnapshot.Phase {
    /// What status shows of the session's phase: a drain shows as idle, the session it ended being gone.
    package init(_ phase: SessionPhase) {
        switch phase {
        case .idle, .draining: self = .idle
        case .initializing: self = .initializing
        case .failed(let reason): self = .failed(reason: reason)
        case .active(let session):
            self = .ready(
                DaemonSnapshot.Session(
                    endpoints: session.endpoints, tracking: session.tracking,
                    metadataFailures: session.metadata.schedule.consecutiveFailures, nextMetadataAt: session.metadata.nextRefreshAt,
                    adPlacement: session.placement))
        }
    }
}
