import BeaconDomain
import BeaconHTTP
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct RetryScheduleTests {
    /// Draws the largest value every time: each backoff wait is its ceiling.
    struct Highest: RandomNumberGenerator {
        mutating func next() -> UInt64 { .max }
    }

    @Test func failuresWaitLongerAndLongerUpToTheCap() {
        var schedule = RetrySchedule(interval: 2_000)
        var random = Highest()
        let waits = (1...9).map { _ in schedule.failed(using: &random) }
        #expect(waits == [2_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000])
        #expect(schedule.consecutiveFailures == 9)
    }

    @Test func aFailureNeverWaitsLessThanTheInterval() {
        var schedule = RetrySchedule(interval: 2_000)
        var random = SystemRandomNumberGenerator()
        let waits = (1...20).map { _ in schedule.failed(using: &random) }
        // The first two backoff ceilings, 1 s and 2 s, are within the interval.
        #expect(waits.prefix(2) == [2_000, 2_000])
        #expect(waits.allSatisfy { (2_000...60_000).contains($0) })
    }

    @Test func aSuccessStartsTheCountAgain() {
        var schedule = RetrySchedule(interval: 500)
        var random = Highest()
        for _ in 1...4 { _ = schedule.failed(using: &random) }
        #expect(schedule.succeeded() == 500)
        #expect(schedule.consecutiveFailures == 0)
        #expect(schedule.failed(using: &random) == 1_000)
    }

    @Test func theServersRequestIsHonouredWithinItsBound() {
        var random = Highest()
        var schedule = RetrySchedule(interval: 2_000)
        #expect(schedule.failed(requestedWait: 30_000, using: &random) == 30_000)
        #expect(schedule.failed(requestedWait: 10, using: &random) == 2_000, "never shorter than the interval")
        #expect(schedule.failed(requestedWait: 86_400_000, using: &random) == 600_000, "at most 10 minutes by default")
        for _ in 1...4 { _ = schedule.failed(using: &random) }
        #expect(schedule.failed(requestedWait: 5_000, using: &random) == 60_000, "nor shorter than the backoff")
    }

    @Test func withoutAnIntervalItIsThePlainBackoff() {
        var schedule = RetrySchedule(interval: 0)
        var random = SystemRandomNumberGenerator()
        for retry in 1...10 {
            let wait = schedule.failed(using: &random)
            #expect((0...Backoff().ceiling(forRetry: retry)).contains(wait))
        }
    }
}
