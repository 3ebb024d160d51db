import BeaconDomain
/// Renders a status report for a person at a terminal: the session, where playback is, and every
/// ad break, ad and tracking event with its reporting state.
package enum StatusView {
    package static func render(_ report: StatusReport) -> String {
        let time = report.shownTimeline
        var lines: [String] = []
        lines.append("beaconctl \(report.version) (API level \(report.apiLevel))")
        lines.append(field("state", report.state))
        if report.initFailures > 0 {
            lines.append(field("session init", "\(report.initFailures) attempts failed in a row\(nextTry(report.nextInitAt))"))
        }
        if let session = report.session, let reason = session.plainReason {
            lines.append(field("plain stream", session.mediaURL))
            lines.append(field("why", reason))
        } else if let session = report.session {
            lines.append(field("session id", session.sessionID ?? "-"))
            lines.append(field("dialect", session.dialect?.rawValue ?? "auto, not decided yet"))
            lines.append(field("media URL", session.mediaURL))
            lines.append(field("manifest URL", session.manifestURL))
            lines.append(field("tracking URL", session.isSGAI ? "none: SGAI, each asset list carries its tracking" : session.trackingURL))
        } else {
            lines.append(field("session", noSession(report)))
        }
        if let playhead = report.playhead {
            lines.append(field("playhead", time.format(playhead)))
            if let content = report.contentPosition { lines.append(field("content", "\(time.format(content)) without ad breaks")) }
            lines.append(field("next ad break", nextBreak(after: playhead, in: report.adBreaks)))
            if let placement = report.adPlacement { lines.append(field("in ad break", placed(placement))) }
            if report.adInsertion == "interstitials" { lines.append(field("ads", "as interstitials: the main playhead fires none")) }
            if let interstitial = report.interstitial { lines.append(field("interstitial", Self.interstitial(interstitial, time: time))) }
        } else {
            lines.append(field("playhead", "no tick yet"))
        }
        if let range = report.dataRange {
            lines.append(field("data range", "\(time.format(range.start)) .. \(time.format(range.end))"))
        }
        let counters = report.counters
        lines.append(field("ticks", "\(counters.ticks)   bad lines \(counters.badLines)"))
        lines.append(
            field(
                "beacons",
                "\(counters.beaconsSent) sent   \(counters.beaconsFailed) failed   \(counters.beaconsRetried) retried   \(counters.beaconsResent) re-sent"))
        let waiting = report.deliveries.count { !$0.state.isFinished }
        if waiting > 0 { lines.append(field("backlog", "\(waiting) beacon deliveries due or in flight")) }
        lines.append(field("journal", journal(report.journal, errors: counters.journalErrors)))
        if let audit = report.audit { lines.append(field("audit", Self.audit(audit))) }
        var metadata = "\(counters.metadataFetches) fetches   \(counters.metadataErrors) errors"
        if let session = report.session, session.isSGAI, !session.pollsMetadata { metadata += "   none polled (SGAI)" }
        if report.metadataFailures > 0 {
            metadata += "   \(report.metadataFailures) failed in a row\(nextTry(report.nextMetadataAt))"
        }
        lines.append(field("metadata", metadata))
        if let error = report.lastError { lines.append(field("last error", error)) }
        if let heldBack = HeldBackText.summary(of: report.adBreaks) { lines.append(field("held back", heldBack + " (events)")) }
        lines.append(field("log", counters.logLinesDropped == 0 ? "no line dropped" : "\(counters.logLinesDropped) lines dropped: stderr did not take them in time"))
        if !report.reporters.isEmpty {
            lines.append("reporters")
            lines += reporterLines(report.reporters)
        }
        if report.adBreaks.isEmpty {
            lines.append("")
            lines.append("no ad breaks known")
        }
        for adBreak in report.adBreaks {
            lines.append("")
            let adBreakWithdrawn = !adBreak.ads.isEmpty && adBreak.ads.allSatisfy(\.isWithdrawn)
            lines.append(
                "ad break \(adBreak.id)   \(time.format(adBreak.startTime))   \(UTCTime.formatSpan(adBreak.duration))\(adBreakWithdrawn ? "   WITHDRAWN" : "")")
            for ad in adBreak.ads {
                let withdrawn = ad.isWithdrawn ? "   WITHDRAWN from the metadata before it played: none of its events fires" : ""
                lines.append("  ad \(ad.id)   \(time.format(ad.startTime))   \(UTCTime.formatSpan(ad.duration))\(withdrawn)")
                for event in ad.trackingEvents {
                    // The ad line already says why each event of a withdrawn ad is held back.
                    let reason = ad.isWithdrawn ? nil : HeldBackText.reason(for: event, in: ad)
                    lines.append(
                        "    \(padded(HeldBackText.state(of: event), 10)) \(padded(event.event.rawValue, 18)) +\(padded(UTCTime.formatSpan(event.startTime - ad.startTime), 8)) \(urls(event.signalingURLs))"
                            + (reason.map { "   " + $0 } ?? ""))
                    for url in event.currentSignalingURLs ?? [] { lines.append("      now in the metadata, never sent: \(url)") }
                    for delivery in report.deliveries where delivery.adBreakID == adBreak.id && delivery.adID == ad.id && delivery.event == event.event {
                        if let line = detail(delivery) { lines.append("      " + line) }
                    }
                }
                // Companion, icon and verification tracking: never fired from time, only shown.
                for tracking in ad.attachedTracking {
                    let offset = tracking.startTime.map { "+" + UTCTime.formatSpan($0 - ad.startTime) } ?? "-"
                    lines.append(
                        "    \(padded("listed", 10)) \(padded(tracking.event.rawValue, 18)) \(padded(offset, 9)) \(padded(urls(tracking.signalingURLs), 7)) \(tracking.source.rawValue)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func urls(_ urls: [String]) -> String {
        urls.count == 1 ? "1 URL" : "\(urls.count) URLs"
    }

    /// One signaling URL's delivery, unless it went through at the first request.
    static func detail(_ delivery: StatusReport.Delivery) -> String? {
        if delivery.state == .delivered && delivery.attempts <= 1 { return nil }
        var text = "\(padded(delivery.state.rawValue, 10)) attempts \(delivery.attempts)"
        if let status = delivery.lastStatus { text += "   last HTTP \(status)" }
        if let next = delivery.nextAttemptAt { text += "   next \(UTCTime.format(next))" }
        if let error = delivery.lastError { text += "   \(error)" }
        return text + "   " + delivery.url + (delivery.sentURL == delivery.url ? "" : "   sent as " + delivery.sentURL)
    }

    static func audit(_ audit: AuditStatus) -> String {
        if let problem = audit.problem { return "\(audit.storage), unreadable: \(problem)" }
        let kept = audit.storage == "memory" ? "in memory (no state directory), lost at exit" : "in the journal"
        let dropped = audit.dropped == 0 ? "" : ", \(audit.dropped) oldest dropped (\(audit.droppedUnexported) never exported)"
        return "\(audit.records) records, \(audit.bytes / 1024) KiB, \(kept)\(dropped)"
    }

    static func journal(_ journal: StatusReport.Journal, errors: Int) -> String {
        switch journal.state {
        case .ok: errors == 0 ? "ok" : "ok (\(errors) errors so far)"
        case .unavailable: "UNAVAILABLE, working from memory: \(journal.error ?? "unknown error") (\(errors) errors)"
        case .off: "off (memory only)"
        }
    }

    /// Where the playhead is in its ad break and ad: `pod-1 (#2) +12.0s of 30.0s   ad 7 (2 in the break) +2.0s of 15.0s   "Title"`.
    static func placed(_ placement: AdPlacement) -> String {
        let adBreak = placement.adBreak
        var text = "\(adBreak.id) (#\(adBreak.index)) +\(UTCTime.formatSpan(placement.offsetInAdBreak)) of \(UTCTime.formatSpan(adBreak.duration))"
        guard let ad = placement.ad, let offset = placement.offsetInAd else { return text + "   between ads" }
        text += "   ad \(ad.id) (\(ad.position) in the break) +\(UTCTime.formatSpan(offset)) of \(UTCTime.formatSpan(ad.duration))"
        return text + (ad.title.map { "   \"\($0)\"" } ?? "")
    }

    static func nextBreak(after playhead: Milliseconds, in adBreaks: [AdBreak]) -> String {
        if let current = adBreaks.first(where: { $0.startTime <= playhead && playhead < $0.startTime + $0.duration }) {
            return "playing ad break \(current.id) (ends in \(UTCTime.formatSpan(current.startTime + current.duration - playhead)))"
        }
        guard let next = adBreaks.filter({ $0.startTime > playhead }).min(by: { $0.startTime < $1.startTime }) else {
            return "none known"
        }
        return "in \(UTCTime.formatSpan(next.startTime - playhead)) (ad break \(next.id))"
    }

    /// What stands for the session before there is one.
    static func noSession(_ report: StatusReport) -> String {
        report.state == "initializing" ? "none yet (session init under way)" : "none (waiting for 'load <media-url>')"
    }

    /// `, next try at <UTC>` when a retry is scheduled; nothing while an attempt is under way.
    private static func nextTry(_ time: Milliseconds?) -> String {
        time.map { ", next try at \(UTCTime.format($0))" } ?? ""
    }

    private static func field(_ name: String, _ value: String) -> String {
        padded(name, 14) + value
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// `id at <place>, asset 1 of 2 (uri) at +3.2s of 12.0s, tracking from the metadata (ad break p1)`.
    static func interstitial(_ interstitial: InterstitialStatus, time: Timeline) -> String {
        var text = "\(interstitial.id) at \(time.format(interstitial.place))"
        if let asset = interstitial.asset {
            text += ", asset \(asset + 1) of \(interstitial.assets)"
            if let uri = interstitial.assetUri { text += " (\(uri))" }
            if let position = interstitial.position { text += " at +\(UTCTime.formatSpan(position))" }
            if let duration = interstitial.duration { text += " of \(UTCTime.formatSpan(duration))" }
        }
        switch interstitial.tracking {
        case .metadata: text += ", tracking from the metadata"
        case .assetList: text += ", tracking from its asset list"
        case .none: text += ", no tracking: \(interstitial.trackingReason ?? "none")"
        }
        if let adBreak = interstitial.adBreakId { text += " (ad break \(adBreak))" }
        if let ended = interstitial.ended { text += ", ended \(ended.rawValue)" }
        return text
    }
}
