/// The event types the Media Collection API takes, spelled as on the wire.
package enum MediaCollectionEventType: String, Sendable, CaseIterable {
    case sessionStart, sessionComplete, sessionEnd
    case adBreakStart, adBreakComplete, adStart, adComplete, adSkip
    case chapterStart, chapterComplete, chapterSkip
    case play, ping, bufferStart, pauseStart
    case bitrateChange, error
    case stateStart, stateEnd

    /// Whether the event ends its session: the back end takes nothing after it.
    package var endsSession: Bool { self == .sessionComplete || self == .sessionEnd }
}
