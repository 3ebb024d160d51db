/// What the heartbeat tracker asks its runtime to do, in order.
package enum HeartbeatAction: Sendable, Equatable {
    /// Send this request and give its outcome back with ``HeartbeatTracker/record(_:of:now:wallNow:)``.
    case send(HeartbeatRequest)
    /// Tell the player (the event history, `events follow`, the connection that sent the `load`).
    case notify(PlayerNotification)
    /// A VOD playback's heartbeats failed `max-allowed-failures` times in a row: warn, and go on.
    case warn(failuresInARow: Int, reason: String)
    /// Keep this content position (milliseconds, stitched ads excluded) as the content's bookmark.
    case saveBookmark(contentID: String, position: Milliseconds)
}
