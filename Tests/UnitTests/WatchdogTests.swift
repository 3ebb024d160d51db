import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct WatchdogTests {
    @Test func petsAtHalfTheInterval() {
        #expect(Watchdog.petInterval(environment: ["WATCHDOG_USEC": "30000000"], processID: 42) == .seconds(15))
        #expect(Watchdog.petInterval(environment: ["WATCHDOG_USEC": "200000"], processID: 42) == .milliseconds(100))
    }

    @Test func checksTheProcessWhenNamed() {
        #expect(Watchdog.petInterval(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "42"], processID: 42) == .seconds(1))
        #expect(Watchdog.petInterval(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "41"], processID: 42) == nil)
        #expect(Watchdog.petInterval(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": ""], processID: 42) == nil)
    }

    @Test(arguments: [[:], ["WATCHDOG_USEC": ""], ["WATCHDOG_USEC": "0"], ["WATCHDOG_USEC": "-5"], ["WATCHDOG_USEC": "1.5"],
                      ["WATCHDOG_USEC": "18446744073709551615"]])
    func noWatchdogWithoutAUsableInterval(environment: [String: String]) {
        #expect(Watchdog.petInterval(environment: environment, processID: 42) == nil)
    }
}
