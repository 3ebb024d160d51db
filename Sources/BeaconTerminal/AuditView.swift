import BeaconDomain

/// One audit record as a line of `beaconctl audit`'s table: time, record, outcome, session, ad
/// break, ad, event, then what it says (the request's host, answer and latency, or the reason).
package enum AuditView {
    package static func line(_ record: AuditRecord) -> String {
        let subject = record.subject
        let columns = [
            UTCTime.format(record.at), pad(record.kind.rawValue, 19), pad(record.outcome?.rawValue ?? "-", 9), subject.sessionID ?? "-",
            subject.adBreakID ?? "-", subject.adID ?? "-", subject.event?.rawValue ?? "-",
        ]
        return (columns + [details(record)].filter { !$0.isEmpty }).joined(separator: "  ")
    }

    private static func details(_ record: AuditRecord) -> String {
        var parts: [String] = []
        if let host = record.urlHost { parts.append(host) }
        if let attempt = record.attempt { parts.append("attempt=\(attempt)") }
        if let status = record.httpStatus { parts.append("status=\(status)") }
        if let error = record.error { parts.append("error=\"\(error)\"") }
        if let latency = record.latencyMilliseconds { parts.append("latency_ms=\(latency)") }
        if record.mayBeResend == true { parts.append("resend") }
        if let reason = record.notFired { parts.append("why=\(reason.rawValue)") }
        if let reason = record.reason { parts.append("reason=\"\(reason)\"") }
        return parts.joined(separator: " ")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
