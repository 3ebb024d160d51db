/// Why a tracking event never fired, as it stood when the event could no longer fire (its session
/// ended, or its ad break left retention), or why a fired one sent nothing.
package enum NotFiredReason: String, Sendable, Codable, CaseIterable {
    /// Playback never reached its window: the viewer stopped before it, or started after it.
    case notPlayed = "not-played"
    /// Playback reached past its window without playing it: a seek jumped over it.
    case seekedOver = "seeked-over"
    /// Its ad left the metadata before any of its events fired.
    case withdrawn
    /// It started beyond its ad as last described, and no document extended the ad over it.
    case neverConfirmed = "never-confirmed"
    /// It fired while the daemon was quiet: computed, not sent.
    case quietMode = "quiet-mode"
    /// It fired while the `beacons` reporter was disabled: computed, not sent.
    case beaconsDisabled = "beacons-disabled"
    /// The session ended while its ad played, before the playhead reached its window.
    case sessionEndedFirst = "session-ended-first"

    /// The reason in a sentence, for `audit explain` and the logs.
    package var sentence: String {
        switch self {
        case .notPlayed: "playback never reached its window"
        case .seekedOver: "playback jumped over its window (a seek) without playing it"
        case .withdrawn: "its ad was withdrawn from the metadata before any of its events fired"
        case .neverConfirmed: "it started beyond its ad as last described, and no later metadata extended the ad over it"
        case .quietMode: "the daemon was in quiet mode: it was computed and not sent"
        case .beaconsDisabled: "the beacons reporter was disabled: it was computed and not sent"
        case .sessionEndedFirst: "the session ended while its ad played, before the playhead reached its window"
        }
    }
}
