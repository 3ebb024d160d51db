/// The heartbeat parameters a player got with its playback authorization and passes on `load`
/// (`{"heartbeat": {...}}`). No heartbeat for a playback whose `flag` is false or absent.
package struct HeartbeatOptions: Sendable, Equatable {
    package enum LiveEventType: String, Sendable, Equatable, Codable, CaseIterable { case regular, overflow }
    package enum OverflowMode: String, Sendable, Equatable, Codable, CaseIterable { case before, during, after }

    package var flag: Bool
    /// Sent as `X-Heartbeat-Token`; never logged.
    package var token: String?
    /// Extra request headers for this playback, on top of the configured ones; never logged.
    package var headers: [String: String] = [:]
    /// The sync interval for this playback, in milliseconds; overrides the setting.
    package var freq: Milliseconds?
    package var contentID: String?
    package var catalogType: String?
    package var primaryContentID: String?
    /// The live programme's scheduled start and end, epoch milliseconds.
    package var liveStartTime: Milliseconds?
    package var liveEndTime: Milliseconds?
    /// The end of the whole live event (a "live 360" event: pre-show, programme and post-show),
    /// epoch milliseconds; it ends the event in place of the programme's end.
    package var live360EndTime: Milliseconds?
    package var liveEventType: LiveEventType?
    package var overflowMode: OverflowMode?
    /// The keys of the `load`'s object known under no name, sorted: warned of, never read.
    package var unknownKeys: [String] = []

    package init(
        flag: Bool = false, token: String? = nil, freq: Milliseconds? = nil, contentID: String? = nil,
        catalogType: String? = nil, primaryContentID: String? = nil, liveStartTime: Milliseconds? = nil,
        liveEndTime: Milliseconds? = nil, liveEventType: LiveEventType? = nil, overflowMode: OverflowMode? = nil
    ) {
        self.flag = flag
        self.token = token
        self.freq = freq
        self.contentID = contentID
        self.catalogType = catalogType
        self.primaryContentID = primaryContentID
        self.liveStartTime = liveStartTime
        self.liveEndTime = liveEndTime
        self.liveEventType = liveEventType
        self.overflowMode = overflowMode
    }
}
