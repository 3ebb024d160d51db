/// The `[heartbeat]` settings of the streaming service's session heartbeat. The reporter is
/// configured when `endpoint` is set; a playback has a heartbeat only when its `load` gave
/// `"heartbeat": {"flag": true, ...}`.
package struct HeartbeatSettings: Sendable, Equatable {
    package var endpoint: String?
    /// Where stream starts and stops are counted against the account's limit, if anywhere.
    package var concurrencyEndpoint: String?
    /// Between heartbeats; a playback's `freq` and the service's answer override it.
    package var syncInterval: Duration = .seconds(60)
    /// Failed heartbeats in a row that stop a live playback.
    package var maxAllowedFailures = 2
    package var recordBookmark = false
    package var multiStreamMode = false
    package var playbackStopOnPlaybackEnd = true
    /// How long the post-slate of an overflow event plays before `overflowEventEnd`.
    package var postSlateDuration: Duration = .zero
    package var trackViewersCount = false
    /// The box's id as sent; the default derives a stable id from `/etc/machine-id`, never its raw value.
    package var deviceID: String?
    /// Extra request headers.
    package var headers: [String: String] = [:]

    package init() {}

    package var isConfigured: Bool { endpoint != nil }
}
