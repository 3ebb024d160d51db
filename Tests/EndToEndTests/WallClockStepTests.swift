import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Testing

/// A wall-clock step while beacons wait for their retry (NTP's first sync at boot, during the
/// backlog of the last power cut) moves no schedule: the real binary, its wall clock shifted by an
/// `LD_PRELOAD` shim, against a beacon sink that is down for 7 s.
@Suite(.timeLimit(.minutes(5))) struct WallClockStepTests {
    let reliability = ReliabilityTests()
    static let hour: Int64 = 3_600_000

    /// Plays 2 ads (12 beacons) while the sink is down, steps the daemon's wall clock by `step`
    /// once all 12 are due and the first waits for its retry, brings the sink back 7 s after the outage began, and returns
    /// the last status within `limit` of that, with the sink.
    func outage(stepping step: Int64, limit: Duration) async throws -> (report: StatusReport, adBreak: AdBreak, sink: BeaconSink)? {
        let shimDirectory = try TemporaryDirectory()
        guard let shim = try await WallClockShim.build(in: shimDirectory) else { return nil }
        return try await withBeaconSink { sink in
            try await withAdService { service in
                let adBreak = reliability.adBreak("s", ads: 2, on: sink)
                service.serve(Ads.document([adBreak]))
                await sink.down()
                let outageStart = ContinuousClock.now
                return try await withDaemon(["--media-url", reliability.mediaURL(service), "--stdin"], environment: shim.environment) { daemon in
                    try await daemon.waitUntilListening()
                    var feed = TickFeed(from: Ads.t0)
                    feed.play(to: reliability.adBreakStart + 2 * ReliabilityTests.adDuration + 500)
                    daemon.send(feed.lines)
                    // While the host fails only its oldest delivery is tried: the others wait untried.
                    try await daemon.waitForStatus(timeout: .seconds(30), "12 deliveries due, the oldest waiting for a retry") { report in
                        report.deliveries.count == 12 && report.deliveries.allSatisfy { $0.state == .due }
                            && report.deliveries.contains { $0.attempts >= 1 }
                    }
                    try shim.set(offset: step)
                    try await Task.sleep(until: outageStart + .seconds(7))
                    try await sink.up()
                    let deadline = ContinuousClock.now + limit
                    var report = try await daemon.status()
                    while ContinuousClock.now < deadline, !report.deliveries.allSatisfy(\.state.isFinished) {
                        try await Task.sleep(for: .milliseconds(250))
                        report = try await daemon.status()
                    }
                    try await finish(daemon)
                    return (report, adBreak, sink)
                }
            }
        }
    }

    @Test func aStepOfAnHourForwardDuringAnOutageGivesUpNone() async throws {
        guard let (report, adBreak, sink) = try await outage(stepping: Self.hour, limit: .seconds(60)) else { return }
        let failed = report.deliveries.filter { $0.state == .failed }
        print("wall clock +1 h during a 7 s outage: \(failed.count) of 12 given up, \(sink.received.count) requests reached the sink")
        #expect(failed.isEmpty, "\(failed.prefix(3).map { "\($0.url) \($0.lastError ?? "")" }.joined(separator: "\n"))")
        #expect(report.counters.beaconsSent == 12)
        reliability.expectEachBeacon(of: adBreak, on: sink)
    }

    @Test func aStepOfAnHourBackDuringAnOutageLeavesNoneWaitingAnHour() async throws {
        // The normal backoff after 7 s of failures is a few seconds: 45 s is ample, an hour is not.
        guard let (report, adBreak, sink) = try await outage(stepping: -Self.hour, limit: .seconds(45)) else { return }
        let waiting = report.deliveries.filter { !$0.state.isFinished }
        let wallNow = WallClock.now() - Self.hour
        let farAway = waiting.filter { ($0.nextAttemptAt ?? wallNow) - wallNow > 50 * 60_000 }
        print("wall clock -1 h during a 7 s outage: \(12 - waiting.count) of 12 delivered within 45 s, \(farAway.count) waiting ~1 h")
        #expect(waiting.isEmpty, "\(waiting.prefix(3).map { "\($0.url) next \(($0.nextAttemptAt ?? 0) - wallNow) ms" }.joined(separator: "\n"))")
        #expect(report.counters.beaconsFailed == 0)
        reliability.expectEachBeacon(of: adBreak, on: sink)
    }
}
