/// The session being played, once init succeeded.
package struct ActiveSession: Sendable {
    package var endpoints: SessionEndpoints
    package var tracking: TrackingSession
    /// The load this session came from: work tagged with another one is stale.
    package let generation: Int
    /// When and how its metadata is refreshed.
    package var metadata: MetadataRefresh
    /// Whether playback or metadata changed since the session's snapshot was last saved.
    package var snapshotDirty = true

    package init(endpoints: SessionEndpoints, tracking: TrackingSession, generation: Int, metadata: MetadataRefresh) {
        self.endpoints = endpoints
        self.tracking = tracking
        self.generation = generation
        self.metadata = metadata
    }
}
