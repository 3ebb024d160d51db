/// What the heartbeat tracker hears of a playback: the few notifications of the daemon it reads,
/// without the rest of the daemon's vocabulary.
package enum HeartbeatInput: Sendable, Equatable {
    /// A `load`: its heartbeat parameters (none: no heartbeat) and the stream type the player gave.
    case loaded(HeartbeatOptions?, streamType: ContentInformation.StreamType?)
    /// The ad-insertion session of the playback is ready.
    case sessionReady(sessionID: String?)
    case playhead(PlayheadObservation)
    case playerEvent(PlayerEvent)
    /// The player reported an error of its own (`error player ...`).
    case playerFailed
    /// The session ended: unload, a new load, end of input, the drain.
    case sessionEnded(sessionID: String?)
}
