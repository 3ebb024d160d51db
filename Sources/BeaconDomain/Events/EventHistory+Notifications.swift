extension EventHistory {
    /// Keeps the entry `notification` makes, if it makes one, stamped with `time` (read only then);
    /// returns it.
    ///
    /// A live stream's metadata changes at every refresh, so `metadataApplied` makes an entry only
    /// when its ad break count differs from the last one recorded this session.
    package mutating func record(_ notification: DaemonNotification, at time: @autoclosure () -> Milliseconds) -> EventEntry? {
        guard let event = notification.historyEvent else { return nil }
        switch notification {
        case .metadataApplied(let adBreaks, _, _):
            if recordedAdBreaks == adBreaks { return nil }
            recordedAdBreaks = adBreaks
        case .metadataFailed, .sessionReady, .sessionEnded:
            recordedAdBreaks = nil
        default:
            break
        }
        return append(event, at: time())
    }
}
