import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The ring of recent events: order, bound and numbering.
@Suite(.timeLimit(.minutes(2))) struct EventHistoryTests {
    static func fill(_ history: inout EventHistory, count: Int) {
        for index in 0..<count {
            history.append(HistoryEvent(.lineRejected, ["index": "\(index)"]), at: Milliseconds(1_000 + index))
        }
    }

    @Test func keepsEntriesInOrderWithSequenceNumbersFromOne() {
        var history = EventHistory(capacity: 4)
        #expect(history.entries.isEmpty)
        #expect(history.lastSequence == 0)
        Self.fill(&history, count: 3)
        #expect(history.entries.map(\.sequence) == [1, 2, 3])
        #expect(history.entries.map(\.time) == [1_000, 1_001, 1_002])
        #expect(history.entries.map { $0.details["index"] } == ["0", "1", "2"])
        #expect(history.entries.allSatisfy { $0.code == 201001 && $0.name == "lineRejected" && $0.severity == .warning })
    }

    @Test(arguments: [1, 4, 5, 7, 8, 9, 1_000])
    func neverHoldsMoreThanItsCapacityAndForgetsTheOldestFirst(appended: Int) {
        var history = EventHistory(capacity: 4)
        Self.fill(&history, count: appended)
        let kept = min(appended, 4)
        #expect(history.count == kept)
        #expect(history.lastSequence == UInt64(appended))
        #expect(history.entries.map(\.sequence) == Array(UInt64(appended - kept + 1)...UInt64(appended)))
    }

    @Test func appendReturnsTheEntryItKept() {
        var history = EventHistory(capacity: 2)
        let entry = history.append(HistoryEvent(.drainStarted, ["inFlight": "0"]), at: 42)
        #expect(entry == history.entries.last)
        #expect(entry.sequence == 1 && entry.time == 42 && entry.code == 305001)
    }

    @Test func entriesAfterASequenceLetAFollowerResume() {
        var history = EventHistory(capacity: 4)
        Self.fill(&history, count: 6)  // keeps 3...6
        #expect(history.entries(after: 6).isEmpty)
        #expect(history.entries(after: 100).isEmpty)
        #expect(history.entries(after: 5).map(\.sequence) == [6])
        #expect(history.entries(after: 3).map(\.sequence) == [4, 5, 6])
        // 3 is forgotten: everything kept comes back, and the gap in the numbers shows what was lost.
        #expect(history.entries(after: 1).map(\.sequence) == [3, 4, 5, 6])
        #expect(history.entries(after: 0).map(\.sequence) == [3, 4, 5, 6])
    }

    /// Errors and warnings are kept apart from the info entries: however many plays and pauses
    /// follow, the last `capacity` failures stay; the entries come back in the order they happened.
    @Test func infoEntriesNeverPushOutAFailure() {
        var history = EventHistory(capacity: 4)
        history.append(HistoryEvent(.metadataFailed, ["reason": "HTTP 500"]), at: 1)
        history.append(HistoryEvent(.lineRejected, ["reason": "bad"]), at: 2)
        for index in 0..<1_000 { history.append(HistoryEvent(index.isMultiple(of: 2) ? .paused : .played), at: Milliseconds(3 + index)) }
        #expect(history.count == 6)
        #expect(history.entries.map(\.code) == [103001, 201001, 306008, 306007, 306008, 306007])
        #expect(history.entries.map(\.sequence) == [1, 2, 999, 1_000, 1_001, 1_002])
        #expect(history.entries(after: 2).map(\.sequence) == [999, 1_000, 1_001, 1_002])
        #expect(history.entries(after: 1_000).map(\.sequence) == [1_001, 1_002])
    }

    /// The application's own entries: codes `T99NNN`, the first digit their severity.
    @Test(arguments: [(199_001, EventSeverity.error), (299_999, .warning), (399_000, .info)])
    func theApplicationsEntryTakesItsSeverityFromItsCode(code: Int, severity: EventSeverity) throws {
        let notice = try ApplicationNotice.make(code: code, text: "t").get()
        let entry = EventEntry(sequence: 1, time: 0, event: .application(notice))
        #expect(entry.code == code && entry.severity == severity && entry.name == "applicationNotice" && entry.details == ["text": "t"])
    }
}
