import Testing
@testable import BeaconDomain
import BeaconTesting

/// The manual time source: sleeps wake when the test moves the time, and a cancelled one throws.
@Suite(.timeLimit(.minutes(1))) struct ManualTimeTests {
    @Test func aSleepWakesWhenTheTimeReachesItsInstant() async throws {
        let time = ManualTime(now: 1_000, wall: 5_000)
        let source = time.source
        #expect(source.now() == 1_000 && source.wallNow() == 5_000 && source.wallOffset() == 4_000)
        let sleeper = Task { try await source.sleep(until: 1_500) }
        try await eventually("the sleep registered") { time.sleepers == [1_500] }
        time.advance(by: 499)
        #expect(time.sleepers == [1_500])
        time.advance(by: 1)
        try await sleeper.value
        #expect(source.now() == 1_500 && source.wallNow() == 5_500)
        try await source.sleep(until: 1_200)
    }

    @Test func aCancelledSleepThrowsAndLeavesNoSleeper() async throws {
        let time = ManualTime()
        let sleeper = Task { try await time.source.sleep(until: time.now + 60_000) }
        try await eventually("the sleep registered") { time.sleepers.count == 1 }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(time.sleepers.isEmpty)
    }

    @Test func timeNeverGoesBack() {
        let time = ManualTime(now: 1_000)
        time.advance(to: 500)
        #expect(time.now == 1_000)
    }
}
