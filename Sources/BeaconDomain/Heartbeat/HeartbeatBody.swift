/// The JSON body of one heartbeat (`POST endpoint`): the contract a heartbeat service implements,
/// every key always present, `null` when unknown.
package struct HeartbeatBody: Sendable, Equatable, Encodable {
    /// Where the playhead is: epoch milliseconds on a program-date-time timeline, content seconds
    /// on a media-time one.
    package enum Playhead: Sendable, Equatable, Encodable {
        case epochMilliseconds(Milliseconds)
        case seconds(Double)

        package init(_ tick: PlayheadTick) {
            switch tick.timeline {
            case .programDateTime: self = .epochMilliseconds(tick.playhead)
            case .mediaTime: self = .seconds(Double(tick.playhead) / 1_000)
            }
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .epochMilliseconds(let value): try container.encode(value)
            case .seconds(let value): try container.encode(value)
            }
        }
    }

    package var deviceID: String
    package var contentID: String?
    package var catalogType: String?
    package var primaryContentID: String?
    /// The ad-insertion session's id, once the session is ready.
    package var sessionID: String?
    package var event: HeartbeatEvent
    package var state: HeartbeatPlayState
    package var playhead: Playhead?
    /// The content position without stitched ads, in seconds (VOD with `record-bookmark`).
    package var bookmark: Double?
    package var multiStream: Bool
    package var trackViewersCount: Bool
    /// When it was sent, wall clock, epoch milliseconds.
    package var ts: Milliseconds

    package init(
        deviceID: String, contentID: String?, catalogType: String?, primaryContentID: String?, sessionID: String?,
        event: HeartbeatEvent, state: HeartbeatPlayState, playhead: Playhead?, bookmark: Double?, multiStream: Bool,
        trackViewersCount: Bool, ts: Milliseconds
    ) {
        self.deviceID = deviceID
        self.contentID = contentID
        self.catalogType = catalogType
        self.primaryContentID = primaryContentID
        self.sessionID = sessionID
        self.event = event
        self.state = state
        self.playhead = playhead
        self.bookmark = bookmark
        self.multiStream = multiStream
        self.trackViewersCount = trackViewersCount
        self.ts = ts
    }

    private enum CodingKeys: String, CodingKey {
        case deviceID = "deviceId", contentID = "contentId", catalogType, primaryContentID = "primaryContentId"
        case sessionID = "sessionId", event, state, playhead, bookmark, multiStream, trackViewersCount, ts
    }

    // Encoded by hand: a synthesized encoding leaves out nil keys, and the contract keeps every key.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(deviceID, forKey: .deviceID)
        try container.encode(contentID, forKey: .contentID)
        try container.encode(catalogType, forKey: .catalogType)
        try container.encode(primaryContentID, forKey: .primaryContentID)
        try container.encode(sessionID, forKey: .sessionID)
        try container.encode(event, forKey: .event)
        try container.encode(state, forKey: .state)
        try container.encode(playhead, forKey: .playhead)
        try container.encode(bookmark, forKey: .bookmark)
        try container.encode(multiStream, forKey: .multiStream)
        try container.encode(trackViewersCount, forKey: .trackViewersCount)
        try container.encode(ts, forKey: .ts)
    }
}

/// The JSON body sent to the concurrency endpoint when a playback loads (`start`) and ends (`stop`).
package struct ConcurrencyBody: Sendable, Equatable, Encodable {
    package enum Event: String, Sendable, Equatable, Encodable { case start, stop }

    package var deviceID: String
    package var contentID: String?
    package var event: Event

    package init(deviceID: String, contentID: String?, event: Event) {
        self.deviceID = deviceID
        self.contentID = contentID
        self.event = event
    }

    private enum CodingKeys: String, CodingKey { case deviceID = "deviceId", contentID = "contentId", event }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(deviceID, forKey: .deviceID)
        try container.encode(contentID, forKey: .contentID)
        try container.encode(event, forKey: .event)
    }
}
