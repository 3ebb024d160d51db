/// An ad's `verificationNotExecuted` tracking, which its `adVerifications` give. The daemon runs
/// no measurement script, and IAB's rules ask a player that cannot run verification to say so:
/// it is sent once, when the ad's impression fires, with the VAST `[REASON]` macro set to 2
/// (verification not supported) by the macro expansion (``MacroContext``).
package enum VerificationNotExecuted {
    /// VAST's reason code for a player that does not support verification.
    package static let reason = 2

    /// The not yet fired `verificationNotExecuted` events of the ads whose impression is among `references`.
    static func due(withImpressionsOf references: [EventReference], in schedule: AdSchedule) -> [EventReference] {
        var due: [EventReference] = []
        for reference in references where schedule[reference]?.event == .impression {
            guard let ad = schedule.ad(containing: reference) else { continue }
            for (eventIndex, event) in ad.trackingEvents.enumerated()
            where event.event == .verificationNotExecuted && event.reportingState == .idle {
                let verification = EventReference(adBreakID: reference.adBreakID, adIndex: reference.adIndex, eventIndex: eventIndex)
                if !due.contains(verification) { due.append(verification) }
            }
        }
        return due
    }
}
