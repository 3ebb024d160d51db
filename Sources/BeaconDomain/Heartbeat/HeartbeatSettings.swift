/// The `[heartbeat]` settings of the streaming service's session heartbeat. The reporter is
/// configured when `endpoint` is set; a playback has a heartbeat only when its `load` gave
/// `"heartbeat": {"flag": true, ...}`.
public struct HeartbeatSettings: Sendable, Equatable {
    public var endpoint: String?
    /// Where stream starts and stops are counted against the account's limit, if anywhere.
    public var concurrencyEndpoint: String?
    /// Between heartbeats; a playback's `freq` and the service's answer override it.
    public var syncInterval: Duration = .seconds(60)
    /// Failed heartbeats in a row that stop a live playback.
    public var maxAllowedFailures = 2
    public var recordBookmark = false
    public var multiStreamMode = false
    public var playbackStopOnPlaybackEnd = true
    /// How long the post-slate of an overflow event plays before `overflowEventEnd`.
    public var postSlateDuration: Duration = .zero
    public var trackViewersCount = false
    /// The box's id as sent; the default derives a stable id from `/etc/machine-id`, never its raw value.
    public var deviceID: String?
    /// Extra request headers.
    public var headers: [String: String] = [:]

    public init() {}

    public var isConfigured: Bool { endpoint != nil }
}
