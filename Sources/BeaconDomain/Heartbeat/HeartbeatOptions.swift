/// The heartbeat parameters a player got with its playback authorization and passes on `load`
/// (`{"heartbeat": {...}}`). No heartbeat for a playback whose `flag` is false or absent.
public struct HeartbeatOptions: Sendable, Equatable {
    public enum LiveEventType: String, Sendable, Equatable, Codable, CaseIterable { case regular, overflow }
    public enum OverflowMode: String, Sendable, Equatable, Codable, CaseIterable { case before, during, after }

    public var flag: Bool
    /// Sent as `X-Heartbeat-Token`; never logged.
    public var token: String?
    /// The sync interval for this playback, in milliseconds; overrides the setting.
    public var freq: Milliseconds?
    public var contentID: String?
    public var catalogType: String?
    public var primaryContentID: String?
    /// The live event's scheduled start and end, epoch milliseconds.
    public var liveStartTime: Milliseconds?
    public var liveEndTime: Milliseconds?
    public var liveEventType: LiveEventType?
    public var overflowMode: OverflowMode?

    public init(
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
