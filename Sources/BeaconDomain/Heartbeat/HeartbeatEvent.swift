/// Why a heartbeat is sent (its `event`).
package enum HeartbeatEvent: String, Sendable, Equatable, Encodable, CaseIterable {
    /// The playback began: its first playhead or `play`.
    case start
    /// The sync interval passed.
    case progress
    /// The player's state changed.
    case stateChange
    /// The playback ended (unload, a new load, end of input, the drain).
    case stop
}

/// The player's state as a heartbeat reports it (its `state`).
package enum HeartbeatPlayState: String, Sendable, Equatable, Encodable, CaseIterable {
    case playing, paused, buffering, seeking, stopped, error
}
