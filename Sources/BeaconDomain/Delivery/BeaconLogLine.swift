/// The greppable `BEACON` line of one request: always ad break, ad, event, URL, status and latency
/// (`-` when there was no HTTP answer), and the attempt and reason when it did not deliver.
package struct BeaconLogLine: Sendable, Equatable {
    /// A request that did not deliver is a warning; one delivered (or not sent, quiet) is not.
    package var isWarning: Bool
    package var text: String

    /// The line of `result`, which left `delivery` as it stands, at `now`; `resend` when the
    /// request was a possible re-send (in flight at a crash or a cancel).
    package init(_ result: RequestResult, of delivery: BeaconDelivery, resend: Bool, now: Milliseconds) {
        let key = delivery.key
        var line = "pod=\(key.adBreakID) ad=\(key.adID) event=\(key.event) url=\(key.url)"
        if case .answered(let status) = result.outcome {
            line += " status=\(status)"
        } else {
            line += " status=-"
        }
        line += " latency_ms=\(result.latencyMilliseconds) attempt=\(delivery.attempts)"
        if resend { line += " resend=true" }
        let reason = delivery.lastError.map { " reason=\"\($0)\"" } ?? ""
        switch (delivery.state, result.outcome) {
        case (_, .notSent(.quiet)):
            (isWarning, text) = (false, "BEACON not sent (quiet) \(line)")
        case (_, .notSent(.beaconsDisabled)):
            (isWarning, text) = (false, "BEACON not sent (beacons disabled) \(line)")
        case (.delivered, _):
            (isWarning, text) = (false, "BEACON sent \(line)")
        case (.due, _), (.inFlight, _):
            let next = max(delivery.nextAttemptAt - now, 0)
            (isWarning, text) = (true, "BEACON retrying \(line) next_attempt_in_ms=\(next)\(reason)")
        case (.failed, .refused):
            (isWarning, text) = (true, "BEACON refused \(line)\(reason)")
        case (.failed, _):
            (isWarning, text) = (true, "BEACON failed \(line)\(reason)")
        }
    }
}
