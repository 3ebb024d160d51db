/// What a restart needs to resume a session instead of starting a new one at the ad server:
/// its endpoints, its merged metadata and the program time already played.
///
/// Reporting states are not kept here: they follow from the session's deliveries in the journal.
public struct SessionSnapshot: Sendable, Equatable, Codable {
    package var endpoints: SessionEndpoints
    /// The merged ad breaks, as the session knew them.
    package var adBreaks: [AdBreak]
    package var dataRange: DataRange?
    /// The played stretches of program time, as `[start, end]` pairs.
    package var played: [[Milliseconds]]
    package var playhead: Milliseconds?
    /// When this snapshot was taken (an instant of the monotonic clock: retention counts from it).
    package var savedAt: Milliseconds
    /// The session's timeline; nil before its first document (and in snapshots of earlier releases).
    package var timeline: Timeline?
    /// Program date time minus media time, when the metadata gives both.
    package var programDateTimeOffset: Milliseconds?
    /// The session's interstitials and what each played; nil when it had none (and in snapshots of earlier releases).
    package var interstitials: InterstitialLog?

    public init(
        endpoints: SessionEndpoints, adBreaks: [AdBreak], dataRange: DataRange?, played: [[Milliseconds]], playhead: Milliseconds?,
        savedAt: Milliseconds, timeline: Timeline? = nil, programDateTimeOffset: Milliseconds? = nil
    ) {
        self.endpoints = endpoints
        self.adBreaks = adBreaks
        self.dataRange = dataRange
        self.played = played
        self.playhead = playhead
        self.savedAt = savedAt
        self.timeline = timeline
        self.programDateTimeOffset = programDateTimeOffset
    }
}
