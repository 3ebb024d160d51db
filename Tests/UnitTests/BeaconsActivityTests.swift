import Testing

@testable import BeaconDomain

/// What the `beacons` reporter shows of its requests.
@Suite(.timeLimit(.minutes(2))) struct BeaconsActivityTests {
    static let firing = DaemonMetricsTests.firing(.start)

    static func result(_ outcome: RequestResult.Outcome) -> RequestResult {
        RequestResult(url: "http://127.0.0.1/b?sessid=secret", outcome: outcome, latencyMilliseconds: 3)
    }

    @Test func aSuccessEndsTheFailuresInARowAndEachResultIsCounted() {
        var activity = BeaconsActivity()
        activity.delivered(Self.firing, results: [Self.result(.answered(status: 500)), Self.result(.failed(.timedOut))], wallNow: 10)
        #expect(activity.failuresInARow == 2)
        activity.retrying(DaemonMetricsTests.retrying, wallNow: 11)
        #expect(activity.failuresInARow == 3)
        #expect(activity.lastAnswer == "503")
        activity.delivered(Self.firing, results: [Self.result(.answered(status: 204))], wallNow: 12)
        #expect(activity.failuresInARow == 0)
        activity.delivered(Self.firing, results: [Self.result(.refused("no")), Self.result(.notSent(.quiet))], wallNow: 13)
        #expect(activity.failuresInARow == 0, "not sent (quiet, disabled) is no failure")
        #expect(activity.counters == ["failed": 2, "retried": 1, "sent": 1, "refused": 1, "notSent": 1])
        let status = activity.status(enabled: true, quiet: false)
        #expect(status.lastRequest == "start http://127.0.0.1/b", "the query may carry ids and tokens")
        #expect(status.lastRequestAt == 13)
        #expect(status.lastAnswer == "not sent")
        #expect(status.state == "sending")
        #expect(activity.status(enabled: false, quiet: true).state == "disabled")
        #expect(activity.status(enabled: true, quiet: true).state == "quiet")
    }
}
