import Testing
@testable import BeaconCore

@Suite struct ServiceStatusTests {
    /// A pod of two ads, a1 from t0 and a2 from t0 + 30 s.
    static let pod = Fixture.pod(id: "p", ads: [
        Fixture.ad(id: "a1", start: Fixture.t0), Fixture.ad(id: "a2", start: Fixture.t0 + Fixture.adDuration),
    ])

    func report(_ state: String, playhead: Milliseconds? = nil, adBreaks: [Pod] = [pod]) -> StatusReport {
        StatusReport(
            version: "v", state: state, session: nil, playhead: playhead, dataRange: nil, adBreaks: adBreaks,
            counters: StatusReport.Counters())
    }

    @Test(arguments: ["idle", "initializing", "error", "ready", "playing", "paused"])
    func namesTheStateOutsideAds(state: String) {
        #expect(ServiceStatus.describe(report(state, playhead: Fixture.t0 - 1)) == state)
        #expect(ServiceStatus.describe(report(state)) == state)
    }

    @Test func namesTheAdThePlayheadIsIn() {
        #expect(ServiceStatus.describe(report("playing", playhead: Fixture.t0)) == "playing an ad a1")
        #expect(ServiceStatus.describe(report("playing", playhead: Fixture.t0 + Fixture.adDuration - 1)) == "playing an ad a1")
        #expect(ServiceStatus.describe(report("playing", playhead: Fixture.t0 + Fixture.adDuration)) == "playing an ad a2")
        #expect(ServiceStatus.describe(report("paused", playhead: Fixture.t0 + 5000)) == "paused in ad a1")
        #expect(ServiceStatus.describe(report("playing", playhead: Fixture.t0 + 2 * Fixture.adDuration)) == "playing")
    }

    @Test func countsTrackingEventsDueButNotFinished() {
        var pod = Self.pod
        pod.ads[0].trackingEvents[0].reportingState = .connecting
        pod.ads[0].trackingEvents[1].reportingState = .done
        pod.ads[0].trackingEvents[2].reportingState = .failed
        pod.ads[1].trackingEvents[0].reportingState = .connecting
        #expect(ServiceStatus.describe(report("playing", playhead: Fixture.t0, adBreaks: [pod])) == "playing an ad a1, retry backlog 2")
        #expect(ServiceStatus.describe(report("ready", adBreaks: [pod])) == "ready, retry backlog 2")
    }
}
