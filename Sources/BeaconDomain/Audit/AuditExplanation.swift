/// `beaconctl audit explain`: why one tracking event did or did not fire, in one paragraph, from
/// the audit's records of its session.
package enum AuditExplanation {
    /// The paragraph for the `event` of ad `adID` (in ad break `adBreakID` when given) among
    /// `records`, every record the audit keeps of the session `sessionID`.
    package static func explain(
        _ records: [AuditRecord], sessionID: String, adID: String, event: TrackingEventType, adBreakID: String? = nil
    ) -> String {
        let story = records.filter {
            $0.subject.adID == adID && $0.subject.event == event && (adBreakID == nil || $0.subject.adBreakID == adBreakID)
        }
        let adBreaks = Set(story.compactMap(\.subject.adBreakID)).sorted()
        if adBreakID == nil, adBreaks.count > 1 {
            return "Ad \(adID) is in \(adBreaks.count) ad breaks of session \(sessionID) (\(adBreaks.joined(separator: ", "))): name one with --ad-break."
        }
        guard let first = story.first else { return unknown(records, sessionID: sessionID, adID: adID, event: event) }
        let subject = first.subject
        let timeline = subject.timeline ?? .programDateTime
        var name = "The \(event) of ad \(adID)"
        if let creative = subject.creativeID { name += " (creative \(creative))" }
        if let adBreak = subject.adBreakID { name += " in ad break \(adBreak)" }
        name += " of session \(sessionID)"
        let window = subject.window.map { " (its window \(span($0, on: timeline)) on \(timelineName(timeline)))" } ?? ""
        if let notFired = story.last(where: { $0.kind == .notFired && $0.attempt == nil && $0.urlHost == nil }),
            !story.contains(where: { $0.kind == .due })
        {
            return "\(name) never fired\(window): \(notFired.notFired?.sentence ?? "no reason was recorded")"
                + playedAround(notFired, on: timeline) + ". Recorded at \(UTCTime.format(notFired.at)), when it could no longer fire."
        }
        var sentences: [String] = []
        if let due = story.first(where: { $0.kind == .due }) {
            let by = due.played.isEmpty ? "" : ", made due by the playback of \(due.played.map { span($0, on: timeline) }.joined(separator: " and "))"
            sentences.append("\(name) fired at \(UTCTime.format(due.at))\(window)\(by).")
        } else {
            sentences.append("\(name) fired\(window); the record of when it became due is gone (older than the audit keeps).")
        }
        let requests = story.filter { $0.kind == .attempt }
        if !requests.isEmpty { sentences.append("Requests: " + requests.map(describe).joined(separator: "; ") + ".") }
        sentences.append(verdict(story, requests: requests))
        return sentences.joined(separator: " ")
    }

    private static func verdict(_ story: [AuditRecord], requests: [AuditRecord]) -> String {
        let givenUp = story.filter { $0.kind == .givenUp }
        let notSent = story.filter { $0.kind == .notFired && $0.urlHost != nil }
        if let held = notSent.first {
            return "Nothing was sent: \(held.notFired?.sentence ?? "it was held")."
        }
        if !givenUp.isEmpty {
            let reasons = givenUp.map { "\($0.urlHost ?? "a signaling URL"): \($0.reason ?? "given up")" }
            let delivered = requests.contains { $0.outcome == .delivered }
            return (delivered ? "Some signaling URLs were delivered, and it" : "It") + " was given up for "
                + reasons.joined(separator: "; ") + "."
        }
        if let last = requests.last, last.outcome == .delivered {
            return "It was delivered" + (requests.contains { $0.mayBeResend == true } ? ", possibly twice (a request was re-sent after a restart)." : ".")
        }
        return requests.isEmpty ? "No request has ended yet." : "Its last request did not deliver: it is being retried."
    }

    private static func describe(_ attempt: AuditRecord) -> String {
        var text = "\(attempt.urlHost ?? "?") attempt \(attempt.attempt ?? 1) at \(UTCTime.format(attempt.at)): "
        if let status = attempt.httpStatus { text += "HTTP \(status)" } else { text += attempt.error ?? "no answer" }
        if let latency = attempt.latencyMilliseconds, latency > 0 { text += " in \(latency) ms" }
        if attempt.mayBeResend == true { text += " (a re-send after a restart)" }
        return text
    }

    private static func playedAround(_ record: AuditRecord, on timeline: Timeline) -> String {
        guard let window = record.subject.window else { return "" }
        let before = record.played.last { $0.upperBound < window.lowerBound }
        let after = record.played.first { $0.lowerBound > window.upperBound }
        switch (before, after) {
        case (let before?, let after?):
            return "; playback reached \(timeline.format(before.upperBound)), then went on from \(timeline.format(after.lowerBound))"
        case (let before?, nil): return "; playback reached \(timeline.format(before.upperBound))"
        case (nil, let after?): return "; playback began at \(timeline.format(after.lowerBound)), past it"
        case (nil, nil): return ""
        }
    }

    private static func unknown(_ records: [AuditRecord], sessionID: String, adID: String, event: TrackingEventType) -> String {
        let known = records.isEmpty
            ? "The audit holds no record of session \(sessionID) at all: it keeps 7 days by default, and a session id is matched exactly"
            : "The audit holds records of session \(sessionID), none of the \(event) of ad \(adID): the metadata the daemon read never described that event, or its session still plays and it has not become due"
        let ads = Set(records.compactMap(\.subject.adID)).sorted()
        return known + (ads.isEmpty ? "." : ". Ads of the session in the audit: \(ads.joined(separator: ", ")).")
    }

    private static func span(_ range: ClosedRange<Milliseconds>, on timeline: Timeline) -> String {
        "\(timeline.format(range.lowerBound))–\(timeline.format(range.upperBound))"
    }

    private static func timelineName(_ timeline: Timeline) -> String {
        timeline == .programDateTime ? "program date time" : "media time"
    }
}
