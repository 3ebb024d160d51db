extension DaemonCore {
    /// An interstitial's start, asset, position or end.
    mutating func observe(
        _ command: InterstitialCommand, line: String, from client: InputClient, now: Milliseconds, wallNow: Milliseconds
    ) -> InputOutcome {
        let reason = "interstitials are not read yet"
        refuse(reason, line: line, from: client)
        return .refused(reason)
    }
}
