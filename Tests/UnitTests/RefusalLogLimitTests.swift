import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct RefusalLogLimitTests {
    let client = InputClient.controlConnection(1)

    @Test func theFirstFiveOfASecondAreLoggedTheRestCountedAndReportedWhenTheNextSecondStarts() {
        var limit = RefusalLogLimit()
        let verdicts = (0..<8).map { limit.refused(by: client, at: 1_000 + Milliseconds($0)) }
        #expect(verdicts.map(\.logged) == [true, true, true, true, true, false, false, false])
        #expect(verdicts.allSatisfy { $0.unloggedBefore == 0 })
        // Still the same second, 999 ms after it started.
        #expect(limit.refused(by: client, at: 1_999) == .init(unloggedBefore: 0, logged: false))
        #expect(limit.refused(by: client, at: 2_000) == .init(unloggedBefore: 4, logged: true))
        #expect(limit.refused(by: client, at: 2_001) == .init(unloggedBefore: 0, logged: true))
    }

    @Test func aSecondWithNothingUnloggedReportsNothing() {
        var limit = RefusalLogLimit()
        for offset in 0..<5 { #expect(limit.refused(by: client, at: Milliseconds(offset)).logged) }
        #expect(limit.refused(by: client, at: 5_000) == .init(unloggedBefore: 0, logged: true))
    }

    @Test func clientsHaveTheirOwnSeconds() {
        var limit = RefusalLogLimit()
        for offset in 0..<6 { _ = limit.refused(by: client, at: Milliseconds(offset)) }
        #expect(limit.refused(by: .standardInput, at: 10).logged)
        #expect(!limit.refused(by: client, at: 10).logged)
    }

    @Test func aClientLeavingReportsWhatWasNotLoggedAndIsForgotten() {
        var limit = RefusalLogLimit()
        for offset in 0..<12 { _ = limit.refused(by: client, at: Milliseconds(offset)) }
        #expect(limit.left(client) == 7)
        #expect(limit.left(client) == 0)
        #expect(limit.refused(by: client, at: 20).logged)
    }

    @Test func aClockGoingBackStartsANewSecond() {
        var limit = RefusalLogLimit()
        for offset in 0..<6 { _ = limit.refused(by: client, at: 5_000 + Milliseconds(offset)) }
        #expect(limit.refused(by: client, at: 4_000) == .init(unloggedBefore: 1, logged: true))
    }
}
