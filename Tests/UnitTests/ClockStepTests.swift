import Synchronization
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The daemon's runtime hands its core the monotonic instant: a step of the wall clock between two
/// ticks is no time played. The daemon runs on the real monotonic clock and a wall clock the test
/// steps; the schedules' rules under a step are `DaemonCoreTests`'.
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
            // The core decided before the line's reply: nothing fired, so nothing is to be sent.
            #expect(await daemon.statusReport().deliveries.isEmpty)
            #expect(await daemonTests.impressionState(daemon) != .done)
        }
    }
}
