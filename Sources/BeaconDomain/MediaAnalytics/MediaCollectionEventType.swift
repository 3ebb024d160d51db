/// The Media Collection API's event types beaconctl sends (`eventType` in a request body).
package enum MediaCollectionEventType: String, Sendable, Equatable, CaseIterable, Codable {
    case sessionStart, play, ping, pauseStart, bufferStart
    case adBreakStart, adStart, adComplete, adSkip, adBreakComplete
    case chapterStart, chapterComplete, chapterSkip
    case bitrateChange, error, stateStart, stateEnd
    case sessionComplete, sessionEnd

    /// What the outbox may drop first when it is full: a lost ping costs nothing the next one does
    /// not restore.
    package var isPing: Bool { self == .ping }

    /// What the outbox never drops: the session's bounds and the ad breaks, ads and chapters, whose
    /// loss would misreport whole spans of the playback.
    package var isStructural: Bool {
        switch self {
        case .sessionStart, .sessionComplete, .sessionEnd, .adBreakStart, .adStart, .adComplete, .adSkip,
            .adBreakComplete, .chapterStart, .chapterComplete, .chapterSkip:
            true
        case .play, .ping, .pauseStart, .bufferStart, .bitrateChange, .error, .stateStart, .stateEnd:
            false
        }
    }
}
