import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct ServiceStatusTests {
    /// An ad break of two ads, a1 from t0 and a2 from t0 + 30 s.
    static let adBreak = Fixture.adBreak(id: "p", ads: [
        Fixture.ad(id: "a1", start: Fixture.t0), Fixture.ad(id: "a2", start: Fixture.t0 + Fixture.adDuration),
    ])

    func report(_ state: String, playhead: Milliseconds? = nil, adBreaks: [AdBreak] = [adBreak]) -> StatusReport {
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

    @Test func countsDeliveriesWaitingForARetry() {
        func delivery(_ url: String, _ state: BeaconDelivery.State, attempts: Int) -> StatusReport.Delivery {
            StatusReport.Delivery(
                BeaconDelivery(
                    key: BeaconDelivery.Key(
                        sessionKey: "s", adBreakID: "p", adID: "a1", event: .start, eventStart: Fixture.t0, url: url, occurrence: 0),
                    reference: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0), state: state, attempts: attempts, dueAt: Fixture.t0), wallOffset: 0)
        }
        var playing = report("playing", playhead: Fixture.t0)
        playing.deliveries = [
            delivery("http://a/1", .due, attempts: 1), delivery("http://a/2", .due, attempts: 3), delivery("http://a/3", .due, attempts: 0),
            delivery("http://a/4", .inFlight, attempts: 2), delivery("http://a/5", .failed, attempts: 4), delivery("http://a/6", .delivered, attempts: 1),
        ]
        #expect(ServiceStatus.describe(playing) == "playing an ad a1, retry backlog 2")
        var ready = report("ready")
        ready.deliveries = playing.deliveries
        #expect(ServiceStatus.describe(ready) == "ready, retry backlog 2")
        ready.deliveries.removeFirst(2)
        #expect(ServiceStatus.describe(ready) == "ready")
    }
}
