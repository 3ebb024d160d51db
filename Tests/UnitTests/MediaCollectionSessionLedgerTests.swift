import BeaconDomain
import BeaconSimulator
import Testing

@Suite("The order of a Media Collection session's events", .timeLimit(.minutes(2)))
struct MediaCollectionSessionLedgerTests {
    static let start: Int64 = 1_764_115_200_000

    func event(_ type: MediaCollectionEventType, at offset: Int64, _ params: [String: MediaCollectionValue] = [:]) -> MediaCollectionEvent {
        MediaCollectionEvent(type: type, playhead: 0, ts: Self.start + offset, params: params)
    }

    static func opening(_ contentType: String, length: Double = 600, playhead: Double = 0) -> MediaCollectionEvent {
        MediaCollectionEvent(
            type: .sessionStart, playhead: playhead, ts: start, params: ["media.contentType": .string(contentType), "media.length": .number(length)])
    }

    func ledger() throws -> MediaCollectionSessionLedger {
        try MediaCollectionSessionLedger.opening(Self.opening("vod")).get()
    }

    /// The reason `type` at `offset` is refused after `before`, nil when it is taken.
    func violation(
        _ type: MediaCollectionEventType, at offset: Int64, _ params: [String: MediaCollectionValue] = [:],
        after before: [(MediaCollectionEventType, [String: MediaCollectionValue])] = []
    ) throws -> MediaCollectionSessionLedger.Violation? {
        var ledger = try ledger()
        for (index, (earlier, earlierParams)) in before.enumerated() {
            try ledger.take(event(earlier, at: Int64(index + 1), earlierParams))
        }
        do {
            try ledger.take(event(type, at: Int64(before.count + 1), params))
            return nil
        } catch {
            return error
        }
    }

    static let ad: [String: MediaCollectionValue] = ["media.ad.id": .string("ad-1")]

    @Test func aVODSessionWithAMidRollAChapterAndAStateIsTaken() throws {
        var ledger = try ledger()
        let sequence: [(MediaCollectionEventType, [String: MediaCollectionValue])] = [
            (.play, [:]), (.chapterStart, ["media.chapter.index": .integer(1)]), (.ping, [:]),
            (.adBreakStart, [:]), (.adStart, Self.ad), (.ping, [:]), (.adComplete, [:]),
            (.adStart, ["media.ad.id": .string("ad-2")]), (.adSkip, [:]), (.adBreakComplete, [:]),
            (.stateStart, ["media.state.name": .string("mute")]), (.pauseStart, [:]), (.play, [:]),
            (.stateEnd, ["media.state.name": .string("mute")]), (.chapterComplete, [:]), (.sessionComplete, [:]),
        ]
        for (offset, (type, params)) in sequence.enumerated() {
            try ledger.take(event(type, at: Int64(offset + 1), params))
        }
        #expect(ledger.endedBy == .sessionComplete)
        #expect(!ledger.inAdBreak)
        #expect(ledger.lastTS == Self.start + Int64(sequence.count))
    }

    @Test func tsStrictlyIncreases() throws {
        var ledger = try ledger()
        try ledger.take(event(.play, at: 5))
        #expect(throws: MediaCollectionSessionLedger.Violation(status: 400, description: "ping has ts \(Self.start + 5), not after the previous event's \(Self.start + 5)")) {
            try ledger.take(event(.ping, at: 5))
        }
        #expect(throws: MediaCollectionSessionLedger.Violation.self) { try ledger.take(event(.ping, at: 4)) }
        try ledger.take(event(.ping, at: 6))
        #expect(ledger.lastTS == Self.start + 6)
    }

    @Test func tsIsEpochMilliseconds() throws {
        var seconds = Self.opening("vod")
        seconds.ts = 1_764_115_200
        #expect(throws: MediaCollectionSessionLedger.Violation(status: 400, description: "ts 1764115200 is not epoch milliseconds")) {
            try MediaCollectionSessionLedger.opening(seconds).get()
        }
        var ledger = try ledger()
        #expect(throws: MediaCollectionSessionLedger.Violation.self) { try ledger.take(MediaCollectionEvent(type: .play, playhead: 0, ts: 42)) }
    }

    @Test func aVODPlayheadStaysInsideTheContent() throws {
        var ledger = try MediaCollectionSessionLedger.opening(Self.opening("VOD", length: 600)).get()
        #expect(ledger.playheadLimit == 600)
        try ledger.take(MediaCollectionEvent(type: .play, playhead: 600, ts: Self.start + 1))
        #expect(throws: MediaCollectionSessionLedger.Violation(status: 400, description: "ping has the playhead 600.5, past 600.0")) {
            try ledger.take(MediaCollectionEvent(type: .ping, playhead: 600.5, ts: Self.start + 2))
        }
        #expect(throws: MediaCollectionSessionLedger.Violation(status: 400, description: "ping has a negative playhead -1.0")) {
            try ledger.take(MediaCollectionEvent(type: .ping, playhead: -1, ts: Self.start + 2))
        }
    }

    @Test func aLivePlayheadIsTheTimeOfDay() throws {
        var live = try MediaCollectionSessionLedger.opening(Self.opening("live", length: 86_400, playhead: 45_000.5)).get()
        #expect(live.playheadLimit == 86_400)
        try live.take(MediaCollectionEvent(type: .play, playhead: 86_399.9, ts: Self.start + 1))
        #expect(throws: MediaCollectionSessionLedger.Violation.self) {
            try live.take(MediaCollectionEvent(type: .ping, playhead: 1_764_115_201, ts: Self.start + 2))
        }
        #expect(throws: MediaCollectionSessionLedger.Violation.self) {
            try MediaCollectionSessionLedger.opening(Self.opening("linear", length: 86_400, playhead: 90_000)).get()
        }
        #expect(try MediaCollectionSessionLedger.opening(Self.opening("podcast", length: 10, playhead: 90_000)).get().playheadLimit == nil)
    }

    @Test func theContentHasALength() {
        #expect(throws: MediaCollectionSessionLedger.Violation(status: 400, description: "media.length 0.0 is not positive (a live stream says 86400)")) {
            try MediaCollectionSessionLedger.opening(Self.opening("live", length: 0)).get()
        }
        #expect(throws: MediaCollectionSessionLedger.Violation.self) { try MediaCollectionSessionLedger.opening(Self.opening("vod", length: -1)).get() }
    }

    @Test func adsAreOnlyTakenInsideAnAdBreak() throws {
        #expect(try violation(.adStart, at: 1, Self.ad)?.description == "adStart outside an ad break")
        #expect(try violation(.adStart, at: 1, Self.ad, after: [(.adBreakStart, [:]), (.adStart, Self.ad), (.adComplete, [:]), (.adBreakComplete, [:])])?.description
            == "adStart outside an ad break")
        #expect(try violation(.adStart, at: 1, Self.ad, after: [(.adBreakStart, [:])]) == nil)
    }

    @Test func anAdEndsOnlyWhenOneIsOpen() throws {
        #expect(try violation(.adComplete, at: 1, after: [(.adBreakStart, [:])])?.description == "adComplete without an ad started")
        #expect(try violation(.adSkip, at: 1)?.description == "adSkip without an ad started")
        #expect(try violation(.adSkip, at: 1, after: [(.adBreakStart, [:]), (.adStart, Self.ad), (.adComplete, [:])])?.description
            == "adSkip without an ad started")
        #expect(try violation(.adStart, at: 1, ["media.ad.id": .string("ad-2")], after: [(.adBreakStart, [:]), (.adStart, Self.ad)])?.description
            == "adStart while the ad ad-1 is neither completed nor skipped")
    }

    @Test func anAdBreakBookendsItsAds() throws {
        #expect(try violation(.adBreakComplete, at: 1, after: [(.adBreakStart, [:]), (.adStart, Self.ad)])?.description
            == "adBreakComplete while the ad ad-1 is neither completed nor skipped")
        #expect(try violation(.adBreakComplete, at: 1)?.description == "adBreakComplete without an ad break started")
        #expect(try violation(.adBreakStart, at: 1, after: [(.adBreakStart, [:])])?.description == "adBreakStart inside an ad break not completed")
    }

    @Test func chaptersAndStatesOpenAndClose() throws {
        let chapter: [String: MediaCollectionValue] = ["media.chapter.index": .integer(2)]
        #expect(try violation(.chapterComplete, at: 1)?.description == "chapterComplete without a chapter started")
        #expect(try violation(.chapterStart, at: 1, chapter, after: [(.chapterStart, chapter)])?.description
            == "chapterStart while the chapter 2 is neither completed nor skipped")
        #expect(try violation(.chapterSkip, at: 1, after: [(.chapterStart, chapter)]) == nil)
        let mute: [String: MediaCollectionValue] = ["media.state.name": .string("mute")]
        #expect(try violation(.stateEnd, at: 1, mute)?.description == "stateEnd of the state mute, not started")
        #expect(try violation(.stateStart, at: 1, mute, after: [(.stateStart, mute)])?.description == "stateStart of the state mute, already started")
    }

    @Test(arguments: [MediaCollectionEventType.sessionEnd, .sessionComplete])
    func nothingFollowsTheSessionsEnd(_ end: MediaCollectionEventType) throws {
        #expect(try violation(.ping, at: 1, after: [(end, [:])])
            == MediaCollectionSessionLedger.Violation(status: 410, description: "the session ended with \(end.rawValue): ping came after"))
    }

    @Test func aRefusedEventChangesNothing() throws {
        var ledger = try ledger()
        try ledger.take(event(.adBreakStart, at: 1))
        let before = ledger
        #expect(throws: MediaCollectionSessionLedger.Violation.self) { try ledger.take(event(.adBreakComplete, at: 1)) }
        #expect(throws: MediaCollectionSessionLedger.Violation.self) { try ledger.take(event(.adComplete, at: 2)) }
        #expect(ledger == before)
        try ledger.take(event(.adBreakComplete, at: 2))
    }
}
