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
    /// The ad break and ad the playhead is in, and what it entered and left. Not in the snapshot:
    /// a resumed session tells the ad break and ad it resumes in as entered anew.
    package var adLifecycle = AdLifecycle()

    package init(endpoints: SessionEndpoints, tracking: TrackingSession, generation: Int, metadata: MetadataRefresh) {
        self.endpoints = endpoints
        self.tracking = tracking
        self.generation = generation
        self.metadata = metadata
    }
}
