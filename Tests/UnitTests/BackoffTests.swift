import BeaconDomain
import BeaconHTTP
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct BackoffTests {
    @Test func ceilingDoublesFromTheBaseUpToTheCap() {
        let backoff = Backoff(base: 1000, cap: 60_000)
        #expect((1...8).map(backoff.ceiling(forRetry:)) == [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000])
        #expect(backoff.ceiling(forRetry: 0) == 1000)
        #expect(backoff.ceiling(forRetry: 10_000) == 60_000)
    }

    @Test func delayIsDrawnBetweenZeroAndTheCeiling() {
        let backoff = Backoff(base: 1000, cap: 60_000)
        var random = SystemRandomNumberGenerator()
        for retry in 1...12 {
            let delays = (0..<200).map { _ in backoff.delay(forRetry: retry, using: &random) }
            #expect(delays.allSatisfy { (0...backoff.ceiling(forRetry: retry)).contains($0) })
            // Full jitter: the draws spread over the range instead of sitting at the ceiling.
            #expect(Set(delays).count > 50)
        }
    }

    @Test func badSettingsAreClampedToAUsableBackoff() {
        let backoff = Backoff(base: 0, cap: -5)
        #expect(backoff.base == 1)
        #expect(backoff.cap == 1)
    }
}
