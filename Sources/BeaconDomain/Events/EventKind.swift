/// Every kind of entry the event history records, with its stable numeric code.
///
/// A code reads `TAANNN`: `T` the type band (1 error, 2 warning, 3 info), `AA` the area
/// (01 input, 02 session, 03 metadata, 04 delivery, 05 daemon, 06 playback), `NNN` the kind within them.
/// Codes and names are a contract with operators' tooling and the README's table: never reuse
/// or renumber one; add new kinds with the next free number.
package enum EventKind: Int, Sendable, CaseIterable {
    case sessionFailed = 102001
    case metadataFailed = 103001
    case playerError = 106001
    /// The heartbeat stopped the playback (`stopPlayback`).
    case stopPlayback = 106201
    /// The media-analytics reporter refused the playback's input and entered its error state.
    case analyticsError = 106202
    case lineRejected = 201001
    case beaconsFailed = 204001
    case drainTimedOut = 205001
    case applicationError = 206001
    case blackout = 206201
    /// A VOD playback's heartbeats failed `max-allowed-failures` times in a row; it goes on.
    case heartbeatFailing = 206202
    case sessionStarting = 302001
    case sessionReady = 302002
    case sessionEnded = 302003
    case metadataApplied = 303001
    case adBreaksDiscovered = 303002
    case beaconsDelivered = 304001
    case drainStarted = 305001
    case chapterStarted = 306001
    case chapterEnded = 306002
    case chapterSkipped = 306003
    case playerStateStarted = 306004
    case playerStateEnded = 306005
    case privacySet = 306006
    case played = 306007
    case paused = 306008
    case seekStarted = 306009
    case seekEnded = 306010
    case bufferStarted = 306011
    case bufferEnded = 306012
    case rateChanged = 306013
    case playbackCompleted = 306014
    case adBreakStarted = 306101
    case adStarted = 306102
    case adCompleted = 306103
    case adSkipped = 306104
    case adBreakCompleted = 306105
    /// A quartile of an ad was reached: its `firstQuartile`, `midpoint` or `thirdQuartile` fell due.
    case adProgress = 306106
    case liveProgramStart = 306201
    case liveEventEnd = 306202
    case overflowEventEnd = 306203
    /// An interstitial ended in error: its player could not play an asset.
    case interstitialFailed = 206301
    case interstitialStarted = 306301
    case interstitialEnded = 306302

    /// Where in the daemon an event comes from: the second and third digits of its code.
    package enum Area: Int, Sendable, CaseIterable {
        case input = 1
        case session = 2
        case metadata = 3
        case delivery = 4
        case daemon = 5
        /// The playback: its ads as the playhead meets them, the player's events (play, pause,
        /// seek...), what the player tells besides its playhead (errors, chapters, states,
        /// consent), and what the reporters tell the player.
        case playback = 6
    }

    package var code: Int { rawValue }

    /// The camelCase name shown next to the code.
    package var name: String { "\(self)" }

    package var severity: EventSeverity {
        switch self {
        case .sessionFailed, .metadataFailed, .playerError, .stopPlayback, .analyticsError: .error
        case .lineRejected, .beaconsFailed, .drainTimedOut, .applicationError, .blackout, .heartbeatFailing, .interstitialFailed: .warning
        case .sessionStarting, .sessionReady, .sessionEnded, .metadataApplied, .adBreaksDiscovered, .beaconsDelivered, .drainStarted,
            .chapterStarted, .chapterEnded, .chapterSkipped, .playerStateStarted, .playerStateEnded, .privacySet:
            .info
        case .adBreakStarted, .adStarted, .adCompleted, .adSkipped, .adBreakCompleted, .adProgress: .info
        case .played, .paused, .seekStarted, .seekEnded, .bufferStarted, .bufferEnded, .rateChanged, .playbackCompleted: .info
        case .liveProgramStart, .liveEventEnd, .overflowEventEnd, .interstitialStarted, .interstitialEnded: .info
        }
    }

    package var area: Area {
        switch self {
        case .lineRejected: .input
        case .sessionFailed, .sessionStarting, .sessionReady, .sessionEnded: .session
        case .metadataFailed, .metadataApplied, .adBreaksDiscovered: .metadata
        case .beaconsFailed, .beaconsDelivered: .delivery
        case .drainTimedOut, .drainStarted: .daemon
        case .adBreakStarted, .adStarted, .adCompleted, .adSkipped, .adBreakCompleted, .adProgress: .playback
        case .played, .paused, .seekStarted, .seekEnded, .bufferStarted, .bufferEnded, .rateChanged, .playbackCompleted: .playback
        case .playerError, .applicationError, .chapterStarted, .chapterEnded, .chapterSkipped, .playerStateStarted, .playerStateEnded,
            .privacySet:
            .playback
        case .stopPlayback, .analyticsError, .blackout, .heartbeatFailing, .liveProgramStart, .liveEventEnd, .overflowEventEnd: .playback
        case .interstitialStarted, .interstitialEnded, .interstitialFailed: .playback
        }
    }
}
