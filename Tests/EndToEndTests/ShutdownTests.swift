import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Testing

/// Draining at the end of input and on SIGTERM.
@Suite(.timeLimit(.minutes(5))) struct ShutdownTests {
    let adBreakStart = Ads.t0 + 2_000

    @Test func theEndOfInputWaitsForAnInFlightBeacon() async throws {
        try await withPlayback(
            configure: { $0.answerBeacons(containing: "cn=complete", with: .delay(.milliseconds(1_500))) },
            adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, adDuration: 8_000, on: $0)] }
        ) { service, daemon in
            // The feed ends with the tick that reaches `complete`.
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 8_000)
            daemon.send(feed.lines)
            try await finish(daemon)

            let completes = service.beacons(ad: "p1-a1", .complete)
            #expect(completes.count == 1)
            if let received = completes.first?.at, let exited = daemon.child.exitedAt {
                #expect(received < exited)
            }
            let sent = daemon.stderrLines.filter { $0.contains("BEACON sent") && $0.contains("event=complete") }
            #expect(sent.count == 1, "\(daemon.stderrText.suffix(3000))")
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
        }
    }

    @Test func sigtermWithStandardInputOpenDrainsAndExitsZero() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) { _, daemon in
            daemon.send(TickFeed(from: Ads.t0).lines)
            try await daemon.waitForStatus("the tick") { $0.counters.ticks == 1 }
            daemon.terminate()
            #expect(try await daemon.waitForExit(timeout: .seconds(10)) == 0, "\(daemon.stderrText.suffix(2000))")
            #expect(!daemon.stderrText.contains("Error"), "\(daemon.stderrText.suffix(2000))")
        }
    }

    @Test func sigtermWhileIdleExitsZero() async throws {
        try await withDaemon([]) { daemon in
            try await daemon.waitUntilListening()
            daemon.terminate()
            #expect(try await daemon.waitForExit(timeout: .seconds(10)) == 0)
        }
    }
}
