import Testing

@testable import BeaconDomain

/// The audit kept in memory: records in the order appended, each with the next sequence; the
/// queries `beaconctl audit` makes of it; its bounds, oldest first and counted; what the telemetry
/// exporter reads from it and the mark it leaves.
@Suite(.timeLimit(.minutes(1))) struct AuditRingTests {
    static let t0 = AuditSample.t0
    static let roomy = AuditBounds(maxAge: 3_600_000, maxBytes: 1 << 20)

    /// Three records a second apart, from t0.
    static let three = (0..<3).map { AuditSample.record(.due, at: t0 + Milliseconds($0) * 1000, ad: "a\($0)") }

    static func ring(_ records: [AuditRecord], bounds: AuditBounds = roomy, wallNow: Milliseconds = t0) -> AuditRing {
        var ring = AuditRing(bounds: bounds)
        ring.append(records, wallNow: wallNow)
        return ring
    }

    @Test func recordsAreKeptInTheOrderAppendedNumberedFromOne() {
        var ring = Self.ring(Array(Self.three[..<2]))
        ring.append([Self.three[2]], wallNow: Self.t0 + 2000)
        #expect(ring.entries.map(\.sequence) == [1, 2, 3])
        #expect(ring.entries.map(\.record) == Self.three)
        #expect(ring.bytes == AuditSample.bytes(Self.three))
        #expect(ring.dropped == 0 && ring.droppedUnexported == 0)
    }

    @Test func aRecordAlreadyKeptIsNotKeptTwice() {
        var ring = Self.ring([Self.three[0], Self.three[0]])
        ring.append([Self.three[0], Self.three[1]], wallNow: Self.t0)
        #expect(ring.entries.map(\.sequence) == [1, 2], "the duplicate takes no sequence")
        #expect(ring.entries.map(\.record) == Array(Self.three[..<2]))
        #expect(ring.bytes == AuditSample.bytes(Array(Self.three[..<2])))
    }

    // MARK: Queries

    /// Two sessions; in `s1` two ad breaks holding ad `a`, its requests and a given up URL, an
    /// event that never fired and the session's start.
    static let story: [AuditRecord] = [
        AuditSample.record(.sessionStart, at: t0, adBreak: nil, ad: nil, event: nil),
        AuditSample.record(.due, at: t0 + 1000),
        AuditSample.attempt(1, status: 503, at: t0 + 2000),
        AuditSample.attempt(2, status: 200, at: t0 + 3000),
        AuditSample.record(.givenUp, at: t0 + 4000, adBreak: "q"),
        AuditSample.record(.notFired, at: t0 + 5000, event: .complete),
        AuditSample.attempt(1, status: 204, at: t0 + 6000, session: "s2", ad: "b"),
    ]

    static let queries: [(AuditQuery, [Int])] = [
        (AuditQuery(), Array(0..<7)),
        (AuditQuery(sessionID: "s2"), [6]),
        (AuditQuery(sessionID: "nobody"), []),
        (AuditQuery(adBreakID: "q"), [4]),
        (AuditQuery(adID: "a"), [1, 2, 3, 4, 5]),
        (AuditQuery(event: .complete), [5]),
        (AuditQuery(outcome: .delivered), [3, 6]),
        (AuditQuery(outcome: .failed), [2]),
        (AuditQuery(outcome: .givenUp), [4]),
        (AuditQuery(outcome: .notFired), [5]),
        (AuditQuery(since: t0 + 5000), [5, 6]),
        (AuditQuery(limit: 2), [5, 6]),
        (AuditQuery(sessionID: "s1", adID: "a", event: .impression, since: t0 + 1500, limit: 2), [3, 4]),
        (AuditQuery(limit: 0), []),
    ]

    @Test(arguments: queries) func aQueryReturnsTheRecordsEveryFilterMatches(query: AuditQuery, expected: [Int]) {
        let ring = Self.ring(Self.story)
        let selected = query.select(ring.entries)
        #expect(selected.map(\.record) == expected.map { Self.story[$0] })
        #expect(selected.map(\.sequence) == expected.map { Int64($0) + 1 }, "oldest first, with their sequences")
    }

    // MARK: Bounds

    @Test func pastTheByteBoundTheOldestGoFirstAndAreCounted() {
        let bound = AuditBounds(maxAge: Self.roomy.maxAge, maxBytes: AuditSample.bytes(Array(Self.three[1...])))
        var ring = Self.ring(Array(Self.three[..<2]), bounds: bound)
        #expect(ring.dropped == 0, "two fit")
        ring.append([Self.three[2]], wallNow: Self.t0 + 2000)
        #expect(ring.entries.map(\.sequence) == [2, 3])
        #expect(ring.entries.map(\.record) == Array(Self.three[1...]))
        #expect(ring.bytes == AuditSample.bytes(Array(Self.three[1...])))
        #expect(ring.dropped == 1)
        #expect(ring.droppedUnexported == 1, "never exported")
    }

    @Test func aDroppedRecordAlreadyExportedIsNotCountedAsUnexported() {
        let oneFits = AuditBounds(maxAge: Self.roomy.maxAge, maxBytes: AuditSample.bytes([Self.three[0]]) + 10)
        var ring = Self.ring([Self.three[0]], bounds: oneFits)
        ring.markExported(through: 1)
        ring.append([Self.three[1]], wallNow: Self.t0)
        ring.append([Self.three[2]], wallNow: Self.t0)
        #expect(ring.entries.map(\.sequence) == [3])
        #expect(ring.dropped == 2)
        #expect(ring.droppedUnexported == 1, "sequence 1 was exported, sequence 2 was not")
    }

    @Test func recordsOlderThanTheMaxAgeAreDroppedAtTheNextAppend() {
        let minute = AuditBounds(maxAge: 60_000, maxBytes: 1 << 20)
        var ring = Self.ring(Self.three, bounds: minute, wallNow: Self.t0 + 2000)
        // The cutoff is t0 + 1000: a record at it is kept, the one before it goes.
        ring.append([], wallNow: Self.t0 + 61_000)
        #expect(ring.entries.map(\.sequence) == [2, 3])
        #expect(ring.dropped == 1 && ring.droppedUnexported == 1)
        #expect(ring.bytes == AuditSample.bytes(Array(Self.three[1...])))
        ring.append([], wallNow: Self.t0 + 63_000)
        #expect(ring.entries.isEmpty && ring.bytes == 0)
        #expect(ring.dropped == 3)
    }

    @Test func aRecordAlreadyTooOldIsDroppedAsItComes() {
        var ring = Self.ring([], bounds: AuditBounds(maxAge: 60_000, maxBytes: 1 << 20))
        ring.append([Self.three[0]], wallNow: Self.t0 + 60_001)
        #expect(ring.entries.isEmpty)
        #expect(ring.dropped == 1 && ring.droppedUnexported == 1)
        ring.append([Self.three[1]], wallNow: Self.t0 + 60_001)
        #expect(ring.entries.map(\.sequence) == [2], "sequences go on from the dropped record's")
    }

    // MARK: Export

    @Test func theExporterReadsAfterItsMarkAtMostItsLimit() {
        var ring = Self.ring(Self.three)
        #expect(ring.entries(after: 0, limit: 2).map(\.sequence) == [1, 2])
        #expect(ring.entries(after: 2, limit: 10).map(\.sequence) == [3])
        #expect(ring.entries(after: 3, limit: 10).isEmpty)
        #expect(ring.entries(after: 0, limit: 0).isEmpty)
        #expect(ring.entries(after: 0, limit: -1).isEmpty)
        ring.markExported(through: 2)
        #expect(ring.exportedThrough == 2)
        ring.markExported(through: 1)
        #expect(ring.exportedThrough == 2, "the mark never moves back")
    }

    @Test func afterTheOldestAreDroppedTheExporterGoesOnFromTheFirstKept() {
        let bound = AuditBounds(maxAge: Self.roomy.maxAge, maxBytes: AuditSample.bytes([Self.three[2]]))
        let ring = Self.ring(Self.three, bounds: bound)
        #expect(ring.entries.map(\.sequence) == [3])
        #expect(ring.entries(after: 0, limit: 10).map(\.record) == [Self.three[2]])
        #expect(ring.entries(after: 1, limit: 10).map(\.sequence) == [3])
    }
}
