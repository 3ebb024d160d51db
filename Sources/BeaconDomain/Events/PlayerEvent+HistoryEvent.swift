extension PlayerEvent {
    /// The history entry of this player event: the playback's own story next to its ads.
    var historyEvent: HistoryEvent {
        switch self {
        case .play: HistoryEvent(.played)
        case .pause: HistoryEvent(.paused)
        case .seekStart: HistoryEvent(.seekStarted)
        case .seekEnd: HistoryEvent(.seekEnded)
        case .bufferStart: HistoryEvent(.bufferStarted)
        case .bufferEnd: HistoryEvent(.bufferEnded)
        case .rate(let rate): HistoryEvent(.rateChanged, ["rate": "\(rate)"])
        case .complete: HistoryEvent(.playbackCompleted)
        }
    }
}
