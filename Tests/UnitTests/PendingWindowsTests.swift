import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct PendingWindowsTests {
    func reference(_ index: Int, adBreak: String = "p") -> EventReference {
        EventReference(adBreakID: adBreak, adIndex: 0, eventIndex: index)
    }

    @Test func takesTheWindowsAStretchTouchesInWindowOrder() {
        var pending = PendingWindows()
        pending.insert(2000...3000, for: reference(2))
        pending.insert(0...1000, for: reference(0))
        pending.insert(1000...2000, for: reference(1))
        pending.insert(5000...6000, for: reference(3))
        #expect(pending.count == 4)
        let due = pending.takeDue(overlapping: 1500...2000)
        #expect(due == [reference(1), reference(2)])
        #expect(pending.count == 2)
        // Taken windows are gone.
        let again = pending.takeDue(overlapping: 1500...2000)
        #expect(again.isEmpty)
        let between = pending.takeDue(overlapping: 3001...4999)
        #expect(between.isEmpty)
        let touchingStart = pending.takeDue(overlapping: -100...0)
        #expect(touchingStart == [reference(0)])
        let touchingEnd = pending.takeDue(overlapping: 6000...7000)
        #expect(touchingEnd == [reference(3)])
        #expect(pending.count == 0)
    }

    @Test func findsALongWindowThatStartedFarBeforeTheStretch() {
        var pending = PendingWindows()
        pending.insert(0...1_000_000, for: reference(0))
        for index in 1...100 {
            let start = Milliseconds(index) * 1000
            pending.insert(start...(start + 1000), for: reference(index))
        }
        let long = pending.takeDue(overlapping: 500_000...500_250)
        #expect(long == [reference(0)])
        #expect(pending.count == 100)
        let short = pending.takeDue(overlapping: 50_000...50_600)
        #expect(short == [reference(49), reference(50)])
        #expect(pending.count == 98)
    }

    @Test func removesByReferenceAndByAdBreak() {
        var pending = PendingWindows()
        pending.insert(0...1000, for: reference(0, adBreak: "a"))
        pending.insert(0...1000, for: reference(1, adBreak: "a"))
        pending.insert(0...1000, for: reference(0, adBreak: "b"))
        pending.remove([reference(1, adBreak: "a")])
        #expect(pending.count == 2)
        pending.removeAll(inAdBreaks: ["a"])
        let due = pending.takeDue(overlapping: 0...1000)
        #expect(due == [reference(0, adBreak: "b")])
    }

    @Test func keepsEveryWindowNotTakenWhenTakenOnesAreSweptOut() {
        var pending = PendingWindows()
        for index in 0..<200 {
            let start = Milliseconds(index) * 1000
            pending.insert(start...(start + 500), for: reference(index))
        }
        // Taking 150 one by one sweeps the taken entries out at least once on the way.
        for index in 0..<150 {
            let start = Milliseconds(index) * 1000
            #expect(pending.takeDue(overlapping: start...(start + 100)) == [reference(index)])
        }
        #expect(pending.count == 50)
        #expect(pending.takeDue(overlapping: 0...149_999).isEmpty)
        pending.insert(10...20, for: reference(1000))
        pending.remove([reference(199)])
        let rest = pending.takeDue(overlapping: 0...1_000_000)
        #expect(rest == [reference(1000)] + (150..<199).map { reference($0) })
        #expect(pending.count == 0)
    }
}
