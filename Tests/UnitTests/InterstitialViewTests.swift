import Testing
@testable import BeaconDomain
@testable import BeaconTerminal

/// `status` and `watch` show the interstitial playing: its asset, position, and where its tracking
/// comes from, or why it has none.
@Suite(.timeLimit(.minutes(1))) struct InterstitialViewTests {
    static func report(_ interstitial: InterstitialStatus) -> StatusReport {
        var report = StatusReport(
            version: "test", state: "playing",
            session: SessionEndpoints(mediaURL: "http://127.0.0.1/m", manifestURL: "http://127.0.0.1/m", trackingURL: "http://127.0.0.1/t", sessionID: "s"),
            playhead: Fixture.t0 + 8_250, lastTickAt: 1_700_000_000_000, dataRange: nil, adBreaks: [], counters: .init())
        report.adInsertion = "interstitials"
        report.interstitial = interstitial
        return report
    }

    static let playing = InterstitialStatus(
        id: "i1", place: Fixture.t0 + 5_000, adBreakId: "p1", asset: 0, assetUri: "http://127.0.0.1/a1.m3u8", position: 3_250, duration: 12_000,
        assets: 2, tracking: .metadata, trackingReason: nil, ended: nil)

    @Test func statusShowsTheAssetItsPositionAndWhereItsTrackingComesFrom() {
        let text = StatusView.render(Self.report(Self.playing))
        #expect(text.contains("as interstitials: the main playhead fires none"))
        #expect(text.contains("i1 at 2023-01-31T03:25:39.076Z, asset 1 of 2 (http://127.0.0.1/a1.m3u8) at +3.2s of 12.0s, tracking from the metadata (ad break p1)"), "\(text)")
    }

    @Test func watchShowsAnUntrackedInterstitialAndWhy() {
        var untracked = Self.playing
        untracked.tracking = .none
        untracked.adBreakId = nil
        untracked.trackingReason = "no metadata describes an ad break at its place"
        untracked.ended = .skipped
        let frame = WatchView.render(report: Self.report(untracked), history: [], now: 1_700_000_000_500, width: 300, colour: false)
        #expect(frame.contains("no tracking: no metadata describes an ad break at its place, ended skipped"), "\(frame)")
    }
}
