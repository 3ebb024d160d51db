/// What one input line asks for.
package enum InputCommand: Sendable, Equatable {
    case playhead(PlayheadTick)
    /// An interstitial's start, asset, position or end.
    case interstitial(InterstitialCommand)
    case player(PlayerEvent)
    case user(UserAction)
    /// Content, chapters, quality, errors, player states, consent.
    case information(PlayerInformation)
    /// `reporter enable|disable NAME`, `reporter list` (answered on the control socket).
    case reporter(ReporterCommand)
    /// Start a session for a media URL, ending the current one first.
    case load(mediaURL: String, options: LoadOptions = LoadOptions())
    /// End the session and return to idle.
    case unload
    /// Ask for the status document (answered on the control socket).
    case status
    /// Ask for the event history (`events`), or to have each new entry streamed as it is
    /// recorded (`events follow`), first the kept ones numbered after `after` when given.
    case events(follow: Bool, after: UInt64?)
    /// Ask where the audit is kept, and for its records when the daemon keeps them in memory
    /// (`audit`, or `audit` with a JSON ``AuditQuery``).
    case audit(AuditQuery)
}
