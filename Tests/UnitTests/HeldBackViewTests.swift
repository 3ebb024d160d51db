import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// `beaconctl status` and `watch` show what the metadata holds back: a withdrawn ad, events
/// waiting for their ad to be confirmed over them, events never confirmed, and the URLs of a fired
/// event that a refresh changed.
@Suite(.timeLimit(.minutes(2))) struct HeldBackViewTests {
    static let t0 = Fixture.t0
    static let now: Milliseconds = 1_700_000_000_000
    static let url = "http://127.0.0.1:1/b"

    static func event(_ type: TrackingEventType, at offset: Milliseconds, _ state: ReportingState = .idle, _ hold: HoldReason? = nil)
        -> TrackingEvent
    {
        TrackingEvent(event: type, startTime: t0 + offset, duration: 0, signalingURLs: [url], reportingState: state, heldBack: hold)
    }

    /// Ad "kept" cut to 468 ms (its start done, its midpoint waiting, its complete never confirmed),
    /// and ad "gone" withdrawn at the same time; the playhead 200 ms in.
    static var report: StatusReport {
        var start = event(.start, at: 0, .done)
        start.currentSignalingURLs = ["http://127.0.0.1:1/re-signed"]
        let kept = Ad(id: "kept", startTime: t0, duration: 468, trackingEvents: [
            start, event(.midpoint, at: 15_000, .idle, .awaitingConfirmation), event(.complete, at: 30_000, .idle, .neverConfirmed),
        ])
        let gone = Ad(id: "gone", startTime: t0, duration: 30_000, trackingEvents: [
            event(.impression, at: 0, .idle, .withdrawn), event(.start, at: 0, .idle, .withdrawn),
        ])
        return StatusReport(
            version: "0.1.0", state: "playing", session: nil, playhead: t0 + 200, lastTickAt: now, dataRange: nil,
            adBreaks: [AdBreak(id: "p1", startTime: t0, duration: 30_000, ads: [gone, kept]), AdBreak(id: "p2", startTime: t0 + 60_000, duration: 30_000, ads: [
                Ad(id: "g2", startTime: t0 + 60_000, duration: 30_000, trackingEvents: [event(.impression, at: 60_000, .idle, .withdrawn)]),
            ])],
            counters: StatusReport.Counters())
    }

    @Test func statusShowsWithdrawnAdsWaitingAndNeverConfirmedEventsAndURLsNotSent() {
        let lines = StatusView.render(Self.report).split(separator: "\n").map(String.init)
        #expect(lines.contains("held back     3 withdrawn   1 waiting for confirmation   1 never confirmed (events)"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ad break p1 ") && !$0.contains("WITHDRAWN") })
        #expect(lines.contains { $0.hasPrefix("ad break p2 ") && $0.hasSuffix("   WITHDRAWN") })
        #expect(lines.contains { $0.hasPrefix("  ad gone ") && $0.hasSuffix("WITHDRAWN from the metadata before it played: none of its events fires") })
        #expect(lines.contains { $0.hasPrefix("  ad kept ") && !$0.contains("WITHDRAWN") })
        #expect(lines.contains("    withdrawn  impression         +0.0s     1 URL"), "\(lines)")
        #expect(
            lines.contains("    waiting    midpoint           +15.0s    1 URL   beyond the ad's end (+0.4s): waits for the metadata to extend the ad over it"),
            "\(lines)")
        #expect(
            lines.contains(
                "    never      complete           +30.0s    1 URL   never confirmed: the data range passed the ad's end (+0.4s) without extending the ad over it"),
            "\(lines)")
        #expect(lines.contains("      now in the metadata, never sent: http://127.0.0.1:1/re-signed"), "\(lines)")
    }

    @Test func nothingHeldBackShowsNoSuchLine() {
        var report = Self.report
        report.adBreaks = [Fixture.adBreak(id: "p", start: Self.t0)]
        let text = StatusView.render(report)
        #expect(!text.contains("held back"))
        #expect(!text.contains("WITHDRAWN"))
        #expect(!text.contains("never sent"))
    }

    @Test func watchShowsTheAdThatPlaysNotTheOneWithdrawnAndWhyEventsWait() {
        let frame = WatchView.render(report: Self.report, history: [], now: Self.now, width: 200, colour: false)
        let lines = frame.split(separator: "\n").map(String.init)
        #expect(lines.contains("held back     3 withdrawn   1 waiting for confirmation   1 never confirmed"), "\(frame)")
        #expect(lines.contains("ad break      p1   ad 2 of 2: kept"), "\(frame)")
        #expect(lines.contains("  waiting     midpoint           +15.0s   beyond the ad's end (+0.4s): waits for the metadata to extend the ad over it"), "\(frame)")
        #expect(lines.contains { $0.hasPrefix("  never       complete           +30.0s   never confirmed: ") }, "\(frame)")
        // With only the withdrawn ad there, it is shown as such.
        var report = Self.report
        report.adBreaks[0].ads.removeLast()
        let alone = WatchView.render(report: report, history: [], now: Self.now, width: 200, colour: false)
        #expect(alone.contains("ad break      p1   ad 1 of 1: gone   withdrawn"), "\(alone)")
        #expect(alone.contains("  withdrawn   impression         +0.0s   withdrawn: its ad left the metadata before it played"), "\(alone)")
    }
}
