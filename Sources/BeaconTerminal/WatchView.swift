import BeaconDomain
/// One frame of `beaconctl watch`, for a person at a terminal: the session, where playback is,
/// the time to the next ad break, the ad playing with its progress and the reporting state of each
/// of its tracking events, what is in flight, and the last warnings and errors.
///
/// A pure function of what it is given, so any frame can be checked exactly.
package enum WatchView {
    /// Warnings and errors shown, newest last.
    static let problemsShown = 5
    /// The most a playhead is carried forward past its last tick while playing.
    static let maxExtrapolation: Milliseconds = 5_000

    /// - Parameters:
    ///   - report: the daemon's status.
    ///   - history: the event history, oldest first.
    ///   - now: the wall clock, epoch ms: it carries the playhead forward between ticks while playing.
    ///   - width: the terminal's columns; longer lines are cut.
    ///   - colour: ANSI colours on or off.
    package static func render(report: StatusReport, history: [EventEntry], now: Milliseconds, width: Int, colour: Bool) -> String {
        let lines = [header(now: now)] + session(report, now: now, width: width) + problems(in: history)
        return lines.map { $0.render(width: width, colour: colour) }.joined(separator: "\n")
    }

    /// The frame shown while no daemon answers, saying why.
    package static func waiting(reason: String, now: Milliseconds, width: Int, colour: Bool) -> String {
        let lines = [header(now: now), StyledLine("waiting for daemon", .yellow) + ": \(reason)"]
        return lines.map { $0.render(width: width, colour: colour) }.joined(separator: "\n")
    }

    private static func header(now: Milliseconds) -> StyledLine {
        StyledLine("beaconctl watch", .bold) + "   \(UTCTime.format(now))"
    }

    private static func session(_ report: StatusReport, now: Milliseconds, width: Int) -> [StyledLine] {
        var lines: [StyledLine] = []
        var state = field("state")
        state.append(report.state, report.state == "error" ? .red : .cyan)
        state.append("   session \(report.session.map { $0.sessionID ?? "-" } ?? StatusView.noSession(report))")
        lines.append(state)
        // While init is retried the state reads `initializing`: the reason is as worth showing.
        if report.state == "error" || report.initFailures > 0, let error = report.lastError {
            lines.append(field("error") + error)
        }
        if let playhead = estimatedPlayhead(report, now: now) {
            let age = report.lastTickAt.map { "   last tick \(UTCTime.formatSpan(max(now - $0, 0))) ago" } ?? ""
            lines.append(field("playhead") + report.shownTimeline.format(playhead) + age)
            if let content = report.contentPosition {
                lines.append(field("content") + report.shownTimeline.format(content) + "   without ad breaks")
            }
            lines.append(field("next ad break") + StatusView.nextBreak(after: playhead, in: report.adBreaks))
            lines += currentAd(at: playhead, in: report.adBreaks, width: width)
            if let interstitial = report.interstitial {
                var line = field("interstitial")
                line.append(StatusView.interstitial(interstitial, time: report.shownTimeline), interstitial.tracking == .none ? .yellow : nil)
                lines.append(line)
            }
        } else {
            lines.append(field("playhead") + "no tick yet")
        }
        let trackingEvents = report.adBreaks.flatMap(\.ads).flatMap(\.trackingEvents)
        let inFlight = trackingEvents.count { $0.reportingState == .connecting }
        let failed = trackingEvents.count { $0.reportingState == .failed }
        var backlog = field("backlog")
        backlog.append("\(inFlight) in flight", inFlight > 0 ? .yellow : nil)
        backlog.append(", ")
        backlog.append("\(failed) failed", failed > 0 ? .red : nil)
        lines.append(backlog)
        if let heldBack = HeldBackText.summary(of: report.adBreaks) { lines.append(field("held back") + heldBack) }
        let counters = report.counters
        lines.append(field("beacons") + "\(counters.beaconsSent) sent   \(counters.beaconsFailed) failed")
        let metadataAge = report.lastMetadataAt.map { "   last \(UTCTime.formatSpan(max(now - $0, 0))) ago" } ?? ""
        lines.append(field("metadata") + "\(counters.metadataFetches) fetches   \(counters.metadataErrors) errors" + metadataAge)
        return lines
    }

    /// The last tick's playhead, carried forward by the time since (up to ``maxExtrapolation``)
    /// while playing, so countdowns and progress move between ticks.
    static func estimatedPlayhead(_ report: StatusReport, now: Milliseconds) -> Milliseconds? {
        guard let playhead = report.playhead else { return nil }
        guard report.state == "playing", let tickAt = report.lastTickAt else { return playhead }
        return playhead + min(max(now - tickAt, 0), maxExtrapolation)
    }

    private static func currentAd(at playhead: Milliseconds, in adBreaks: [AdBreak], width: Int) -> [StyledLine] {
        guard let adBreak = adBreaks.first(where: { $0.startTime <= playhead && playhead < $0.startTime + $0.duration }) else { return [] }
        // A withdrawn ad shares its time with the one that replaced it: the one that plays is shown.
        let playing = adBreak.ads.indices.filter { adBreak.ads[$0].startTime <= playhead && playhead < adBreak.ads[$0].startTime + adBreak.ads[$0].duration }
        guard let index = playing.first(where: { !adBreak.ads[$0].isWithdrawn }) ?? playing.first else {
            return [field("ad break") + "\(adBreak.id)   between ads"]
        }
        let ad = adBreak.ads[index]
        var lines = [field("ad break") + "\(adBreak.id)   ad \(index + 1) of \(adBreak.ads.count): \(ad.id)\(ad.isWithdrawn ? "   withdrawn" : "")"]
        let played = playhead - ad.startTime
        let percent = ad.duration > 0 ? Int(played * 100 / ad.duration) : 100
        let barWidth = max(10, min(40, width - 44))
        let filled = barWidth * percent / 100
        var progress = field("progress") + "["
        progress.append(String(repeating: "#", count: filled), .green)
        progress.append(String(repeating: "-", count: barWidth - filled), .dim)
        progress.append("]  \(percent)%  \(UTCTime.formatSpan(played)) of \(UTCTime.formatSpan(ad.duration))")
        lines.append(progress)
        for event in ad.trackingEvents {
            let (state, style) = look(of: event)
            var line = StyledLine("  ")
            line.append(StatusView.padded(state, 12), style)
            line.append("\(StatusView.padded(event.event.rawValue, 18)) +\(UTCTime.formatSpan(event.startTime - ad.startTime))")
            if let reason = HeldBackText.reason(for: event, in: ad) { line.append("   " + reason, .dim) }
            lines.append(line)
        }
        return lines
    }

    private static func look(of event: TrackingEvent) -> (String, StyledLine.Style?) {
        if event.event.trigger == .unknown { return ("unknown", .dim) }
        if event.heldBack != nil { return (HeldBackText.state(of: event), .dim) }
        switch event.reportingState {
        case .idle: return ("idle", .dim)
        case .connecting: return ("connecting", .yellow)
        case .done: return ("done", .green)
        case .failed: return ("failed", .red)
        }
    }

    private static func problems(in history: [EventEntry]) -> [StyledLine] {
        let problems = history.filter { $0.severity != .info }.suffix(problemsShown)
        var lines = [StyledLine(), StyledLine("last warnings and errors", .bold)]
        if problems.isEmpty { lines.append(StyledLine("  none", .dim)) }
        for entry in problems {
            var line = StyledLine("  \(UTCTime.format(entry.time))  ")
            line.append(entry.severity.rawValue.uppercased(), entry.severity == .error ? .red : .yellow)
            line.append("  \(entry.code)  \(entry.name)\(entry.detailsText)")
            lines.append(line)
        }
        return lines
    }

    private static func field(_ name: String) -> StyledLine {
        StyledLine(StatusView.padded(name, 14))
    }
}
