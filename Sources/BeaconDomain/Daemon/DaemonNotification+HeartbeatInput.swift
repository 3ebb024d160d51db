extension DaemonNotification {
    /// What the heartbeat tracker reads of this notification, or nil when it reads nothing of it.
    package var heartbeatInput: HeartbeatInput? {
        switch self {
        case .playbackLoaded(_, let options): .loaded(options.heartbeat, streamType: options.content?.streamType)
        case .sessionReady(let endpoints): .sessionReady(sessionID: endpoints.sessionID)
        case .playheadObserved(let observation): .playhead(observation)
        case .playerEventObserved(let event): .playerEvent(event)
        case .playerInformed(.error(let error)) where error.source == .player: .playerFailed
        case .sessionEnded(let sessionID): .sessionEnded(sessionID: sessionID)
        default: nil
        }
    }
}
