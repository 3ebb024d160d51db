import Synchronization
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// Every schedule of the daemon is on the monotonic clock: a step of the wall clock, either way,
/// while a beacon waits for its retry changes no retry time and gives nothing up early. The
/// daemon runs on the real monotonic clock and a wall clock the test steps.
@Suite(.timeLimit(.minutes(1))) struct ClockStepTests {
    static let hour: Milliseconds = 3_600_000
    let daemonTests = BeaconDaemonTests()

    /// The system's monotonic clock with a wall clock `offset` away from the system's.
    final class SteppedWallClock: Sendable {
        private let offset = Mutex<Milliseconds>(0)

        func step(by change: Milliseconds) { offset.withLock { $0 += change } }
        func wallNow() -> Milliseconds { WallClock.now() + offset.withLock { $0 } }

        var time: TimeSource {
            TimeSource(bootID: BootClock.bootID, instant: BootClock.now, wall: { self.wallNow() })
        }
    }

    /// Polls the daemon until `condition` holds, or fails after `timeout`.
    func until(timeout: Duration = .seconds(10), _ what: String, _ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while await !condition() {
            guard ContinuousClock.now < deadline else { throw TestTimeout(description: "timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Session s1 with the impression beacon answered as `answers` say, and `maxAge`.
    func run(
        answers: [ScriptedHTTPClient.Answer], maxAge: Duration = .seconds(15 * 60), clock: SteppedWallClock,
        _ body: @Sendable (BeaconDaemon, ScriptedHTTPClient) async throws -> Void
    ) async throws {
        let client = ScriptedHTTPClient([BeaconDaemonTests.trackingURL: [.body(BeaconDaemonTests.metadata)], BeaconDaemonTests.beacon: answers])
        var configuration = BeaconDaemonTests.configuration()
        configuration.beaconMaxAge = maxAge
        try await daemonTests.withDaemon(configuration, client: client, time: clock.time) { daemon in
            await daemonTests.playTheImpression(daemon)
            try await body(daemon, client)
        }
    }

    @Test func aStepOfAnHourForwardGivesUpNothing() async throws {
        let clock = SteppedWallClock()
        try await run(answers: [.retryAfter(503, "1"), .status(204)], clock: clock) { daemon, client in
            try await eventually("the first request") { client.requestCount(BeaconDaemonTests.beacon) == 1 }
            clock.step(by: Self.hour)
            try await eventually("the retry after the step") { client.requestCount(BeaconDaemonTests.beacon) == 2 }
            try await until("the impression delivered") { await daemonTests.impressionState(daemon) == .done }
            let status = await daemon.statusReport()
            #expect(status.counters.beaconsFailed == 0)
            #expect(status.counters.beaconsSent == 1)
        }
    }

    @Test func aStepOfAnHourBackLeavesNoRetryAnHourAway() async throws {
        let clock = SteppedWallClock()
        try await run(answers: [.retryAfter(503, "2"), .status(204)], clock: clock) { daemon, client in
            try await until("the retry scheduled") { await daemon.statusReport().deliveries.first.map { $0.state == .due && $0.attempts == 1 } == true }
            clock.step(by: -Self.hour)
            // Status shows the retry on the stepped wall clock: 2 s away at most, not an hour and 2 s.
            let waiting = try #require(await daemon.statusReport().deliveries.first)
            let shownIn = try #require(waiting.nextAttemptAt) - clock.wallNow()
            #expect(shownIn <= 2_000, "next attempt shown \(shownIn) ms away")
            try await eventually("the retry 2 s after the first request") { client.requestCount(BeaconDaemonTests.beacon) == 2 }
            try await until("the impression delivered") { await daemonTests.impressionState(daemon) == .done }
        }
    }

    @Test func theMaxAgeCountsOnTheMonotonicClockWhateverTheWallClockDoes() async throws {
        let clock = SteppedWallClock()
        try await run(answers: [.status(503)], maxAge: .seconds(2), clock: clock) { daemon, client in
            try await eventually("the first request") { client.requestCount(BeaconDaemonTests.beacon) >= 1 }
            clock.step(by: -Self.hour)
            // Given up 2 s after it fell due on the monotonic clock, not an hour later.
            try await until(timeout: .seconds(20), "the impression given up") { await daemonTests.impressionState(daemon) == .failed }
            let status = await daemon.statusReport()
            #expect(status.deliveries.first?.lastError?.contains("beacon max age passed") == true)
            #expect(client.requestCount(BeaconDaemonTests.beacon) >= 2, "retried until the max age")
        }
    }

    @Test func statusShowsTheMonotonicTimesOnTheWallClock() async throws {
        let clock = SteppedWallClock()
        clock.step(by: 5 * Self.hour)
        try await run(answers: [.retryAfter(503, "30")], clock: clock) { daemon, client in
            try await until("the retry scheduled") { await daemon.statusReport().deliveries.first.map { $0.state == .due && $0.attempts == 1 } == true }
            let status = await daemon.statusReport()
            let delivery = try #require(status.deliveries.first)
            let wallNow = clock.wallNow()
            #expect(abs(wallNow - delivery.dueAt) < 10_000, "due \(wallNow - delivery.dueAt) ms ago")
            let next = try #require(delivery.nextAttemptAt) - wallNow
            #expect((20_000...30_000).contains(next), "next attempt in \(next) ms")
            #expect(abs(wallNow - (status.lastTickAt ?? 0)) < 10_000)
            #expect(abs(wallNow - (status.lastMetadataAt ?? 0)) < 10_000)
            // The metadata interval is an hour in these tests.
            let metadataIn = try #require(status.nextMetadataAt) - wallNow
            #expect((Self.hour - 10_000...Self.hour).contains(metadataIn), "next metadata in \(metadataIn) ms")
        }
    }

    /// Ticks without `at` are judged by their arrival times: a wall-clock step between two of them
    /// is no time played, so a jump of half an hour across the impression is a seek.
    @Test func aStepBetweenTwoTicksIsNoPlayback() async throws {
        let clock = SteppedWallClock()
        let client = ScriptedHTTPClient([BeaconDaemonTests.trackingURL: [.body(BeaconDaemonTests.metadata)], BeaconDaemonTests.beacon: [.status(204)]])
        try await daemonTests.withDaemon(client: client, time: clock.time) { daemon in
            await daemon.waitUntilSettled()
            _ = await daemon.handle(.text("playhead \(BeaconDaemonTests.t0 - 30 * 60_000)"))
            clock.step(by: Self.hour)
            _ = await daemon.handle(.text("playhead \(BeaconDaemonTests.t0 + 500)"))
            try await Task.sleep(for: .milliseconds(300))
            #expect(client.requestCount(BeaconDaemonTests.beacon) == 0)
            #expect(await daemonTests.impressionState(daemon) != .done)
        }
    }
}
