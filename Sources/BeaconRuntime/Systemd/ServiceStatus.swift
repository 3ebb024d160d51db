import BeaconDomain
/// The one-line `STATUS=` text `systemctl status beaconctl` shows, from a status report.
package enum ServiceStatus {
    /// The session state (`idle`, `initializing`, `ready`, `playing`, ...); `playing an ad <id>`
    /// while the playhead is inside an ad (`paused in ad <id>` and the like for other states);
    /// then `, retry backlog <n>` while n beacon deliveries wait for a retry.
    package static func describe(_ report: StatusReport) -> String {
        var text = report.state
        if let playhead = report.playhead, let ad = ad(at: playhead, in: report.adBreaks) {
            text = report.state == "playing" ? "playing an ad \(ad.id)" : "\(report.state) in ad \(ad.id)"
        }
        let backlog = backlog(of: report)
        if backlog > 0 { text += ", retry backlog \(backlog)" }
        return text
    }

    /// Beacon deliveries due again after a request that did not deliver.
    static func backlog(of report: StatusReport) -> Int {
        report.deliveries.count { $0.state == .due && $0.attempts > 0 }
    }

    private static func ad(at playhead: Milliseconds, in adBreaks: [AdBreak]) -> Ad? {
        adBreaks.lazy.flatMap(\.ads).first { $0.startTime <= playhead && playhead < $0.startTime + $0.duration }
    }
}
