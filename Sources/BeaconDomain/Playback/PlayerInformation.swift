/// What the player tells besides its playhead and its play state: the content, chapters, quality,
/// errors, player states (fullscreen, closed captioning...), the viewer's consent, and the
/// application's own history entries.
package enum PlayerInformation: Sendable, Equatable {
    /// `content {...}`: sets or changes the current playback's content information.
    case content(ContentInformation)
    case chapterStart(Chapter)
    case chapterEnd
    case chapterSkip
    /// `bitrate <bps>` or `qos {...}`, or the quality keys of a JSON tick.
    case quality(QualityOfService)
    case error(PlaybackError)
    /// `state-start <name>`; `mute` and `expand` also start `mute` and `fullscreen`.
    case stateStart(String)
    /// `state-end <name>`; `unmute` and `collapse` also end `mute` and `fullscreen`.
    case stateEnd(String)
    case privacy(PrivacyStatus)
    /// `notify <code> <text>`: the application's own entry in the event history.
    case notice(ApplicationNotice)
}
