/// An audit record in one sentence: the telemetry log record's body.
extension AuditRecord {
    package var summary: String {
        let session = subject.sessionID ?? "-"
        let event = [subject.event.map { "\($0)" }, subject.adID.map { "of ad \($0)" }, subject.adBreakID.map { "in ad break \($0)" }]
            .compactMap { $0 }.joined(separator: " ")
        switch kind {
        case .sessionStart: return "session \(session) started" + (reason.map { ", \($0)" } ?? "")
        case .sessionEnd: return "session \(session) ended"
        case .sessionInitFailed: return "session init for \(session) failed: \(reason ?? "no reason")"
        case .due: return "\(event) became due"
        case .attempt:
            let answer = httpStatus.map { "HTTP \($0)" } ?? error ?? "no answer"
            return "\(event): request \(attempt ?? 1) to \(urlHost ?? "?") \(outcome == .delivered ? "delivered" : "failed"), \(answer)"
        case .givenUp: return "\(event): given up for \(urlHost ?? "a signaling URL"): \(reason ?? "no reason")"
        case .notFired: return "\(event) never reached its ad server: \(notFired?.sentence ?? "no reason")"
        }
    }
}
