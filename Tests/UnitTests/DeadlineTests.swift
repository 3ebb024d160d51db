import Testing

@testable import BeaconDomain
@testable import BeaconRuntime
@testable import BeaconTesting

/// `withDeadline`: work raced against a clock, on the manual clock.
@Suite(.timeLimit(.minutes(1))) struct DeadlineTests {
    @Test func theBodysValueWhenItComesFirstAndTheDeadlinesSleepEnds() async {
        let time = ManualTime(now: 1_000)
        let value = await withDeadline(2_000, on: time.source) { 42 }
        #expect(value == 42)
        #expect(time.sleepers.isEmpty)
    }

    @Test func nilWhenTheDeadlineComesFirstAndTheBodyIsCancelledAndAwaited() async throws {
        let time = ManualTime(now: 1_000)
        let bodyEnded = Recorder<Bool>()
        try await withThrowingTaskGroup(of: Int?.self) { group in
            group.addTask {
                await withDeadline(2_000, on: time.source) { () -> Int in
                    await Wakeup().wait()  // never signalled: returns once cancelled
                    bodyEnded.append(Task.isCancelled)
                    return 1
                }
            }
            try await eventually("the deadline's sleep") { time.sleepers == [2_000] }
            time.advance(by: 999)
            #expect(time.sleepers == [2_000])
            time.advance(by: 1)
            let result = try #require(await group.next())
            #expect(result == nil)
        }
        #expect(bodyEnded.all == [true])
    }
}
