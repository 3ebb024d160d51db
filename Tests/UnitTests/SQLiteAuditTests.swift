import Foundation
import Testing

@testable import BeaconDomain
@testable import BeaconRuntime
@testable import BeaconStorage

/// The audit in the journal's SQLite file, each test in a fresh directory: what the journal's
/// commits write, what the read-only reader reads back (after a reopen too), the bounds kept at
/// save (bytes) and at prune (age), and the export mark. One test at a time, as every suite of
/// synced SQLite writes: they hold their threads.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SQLiteAuditTests {
    static let t0 = AuditSample.t0
    static let roomy = AuditBounds(maxAge: 3_600_000, maxBytes: 1 << 20)

    /// Records a second apart from t0, each about another ad; `padding` makes each record that
    /// many characters longer (through its reason).
    static func records(_ count: Int, padding: String = "") -> [AuditRecord] {
        (0..<count).map { index in
            var record = AuditSample.record(.givenUp, at: t0 + Milliseconds(index) * 1000, ad: "a\(index)")
            record.reason = "HTTP 404" + padding
            return record
        }
    }

    /// The journal in `directory`, its wall clock at `wall`.
    static func open(_ directory: String, bounds: AuditBounds = roomy, wall: Milliseconds = t0) throws -> SQLiteBeaconJournal {
        let time = TimeSource(bootID: "A", instant: { 100_000 }, wall: { wall })
        return try SQLiteBeaconJournal(directory: directory, time: time, beaconMaxAge: 900_000, auditBounds: bounds)
    }

    static func save(_ journal: SQLiteBeaconJournal, _ records: [AuditRecord], exportedThrough: Int64? = nil) throws {
        try journal.save([], session: nil, audit: AuditChanges(records: records, exportedThrough: exportedThrough))
    }

    static func kept(_ directory: String) throws -> [AuditEntry] {
        try SQLiteAuditReader(directory: directory).records(AuditQuery())
    }

    static func summary(_ directory: String) throws -> SQLiteAuditReader.Summary {
        try SQLiteAuditReader(directory: directory).summary()
    }

    // MARK: Round trips

    @Test func savedRecordsAreReadBackInOrderAndAfterTheFileIsReopened() async throws {
        let story = AuditRingTests.story
        try await withTemporaryDirectory { directory in
            do {
                let journal = try Self.open(directory)
                try Self.save(journal, Array(story[..<3]))
                try Self.save(journal, Array(story[3...]))
                let reader = try SQLiteAuditReader(directory: directory)
                #expect(try reader.records(AuditQuery()).map(\.record) == story)
                #expect(try reader.records(AuditQuery()).map(\.sequence) == Array(1...7))
            }
            // Both connections closed: a new reader of the file alone.
            let reader = try SQLiteAuditReader(directory: directory)
            #expect(try reader.records(AuditQuery()).map(\.record) == story)
            #expect(try reader.records(AuditQuery(sessionID: "s2")).map(\.record) == [story[6]])
            #expect(try reader.records(AuditQuery(outcome: .delivered)).map(\.sequence) == [4, 7])
            #expect(try reader.records(AuditQuery(adID: "a", since: Self.t0 + 2000, limit: 2)).map(\.sequence) == [5, 6])
            #expect(try reader.entries(after: 2, limit: 3).map(\.sequence) == [3, 4, 5])
            #expect(try reader.entries(after: 7, limit: 3).isEmpty)
            let summary = try reader.summary()
            #expect(summary.records == 7)
            #expect(summary.bytes == AuditSample.bytes(story))
            #expect(summary.exportedThrough == 0 && summary.dropped == 0 && summary.droppedUnexported == 0)
            // The journal reopened goes on numbering after the last.
            try Self.save(try Self.open(directory), Self.records(1))
            #expect(try Self.kept(directory).map(\.sequence).last == 8)
        }
    }

    @Test func aRecordIDAlreadyKeptIsStoredOnceAndItsBytesCountedOnce() async throws {
        let two = Self.records(2)
        try await withTemporaryDirectory { directory in
            // Room for the two records exactly: a duplicate counted would push the oldest out.
            let journal = try Self.open(directory, bounds: AuditBounds(maxAge: Self.roomy.maxAge, maxBytes: AuditSample.bytes(two)))
            try Self.save(journal, two)
            try Self.save(journal, [two[0], two[0]])
            for _ in 0..<3 { try Self.save(journal, [two[1]]) }
            #expect(try Self.kept(directory).map(\.record) == two)
            let summary = try Self.summary(directory)
            #expect(summary.records == 2 && summary.bytes == AuditSample.bytes(two))
            #expect(summary.dropped == 0)
        }
    }

    // MARK: Bounds

    @Test func pastTheByteBoundASaveDropsTheOldestAndCountsThem() async throws {
        let four = Self.records(4)
        try await withTemporaryDirectory { directory in
            let journal = try Self.open(directory, bounds: AuditBounds(maxAge: Self.roomy.maxAge, maxBytes: AuditSample.bytes(Array(four[..<2]))))
            try Self.save(journal, Array(four[..<2]), exportedThrough: 1)
            try Self.save(journal, [four[2]])
            #expect(try Self.kept(directory).map(\.sequence) == [2, 3])
            var summary = try Self.summary(directory)
            #expect(summary.dropped == 1 && summary.droppedUnexported == 0, "sequence 1 was exported")
            try Self.save(journal, [four[3]])
            #expect(try Self.kept(directory).map(\.record) == Array(four[2...]))
            summary = try Self.summary(directory)
            #expect(summary.dropped == 2 && summary.droppedUnexported == 1, "sequence 2 was not")
            #expect(summary.bytes == AuditSample.bytes(Array(four[2...])))
        }
    }

    /// The bound is of bytes: a record with letters beyond ASCII counts each of their UTF-8 bytes,
    /// as the record's JSON is written, in the file's sum as in the count kept between commits.
    @Test func theByteBoundCountsUTF8BytesNotCharacters() async throws {
        let three = Self.records(3, padding: String(repeating: "é", count: 200))
        let two = AuditSample.bytes(Array(three[1...]))
        try await withTemporaryDirectory { directory in
            try Self.save(try Self.open(directory, bounds: AuditBounds(maxAge: Self.roomy.maxAge, maxBytes: two)), three)
            #expect(try Self.kept(directory).map(\.sequence) == [2, 3], "only the oldest goes")
            let summary = try Self.summary(directory)
            #expect(summary.dropped == 1)
            #expect(summary.bytes == two)
        }
    }

    @Test func pruneDropsTheRecordsOlderThanTheMaxAgeAndCountsThem() async throws {
        let three = Self.records(3)
        let minute = AuditBounds(maxAge: 60_000, maxBytes: 1 << 20)
        try await withTemporaryDirectory { directory in
            try Self.save(try Self.open(directory, bounds: minute, wall: Self.t0 + 2000), three, exportedThrough: 1)
            try Self.open(directory, bounds: minute, wall: Self.t0 + 30_000).prune(before: 0)
            #expect(try Self.kept(directory).count == 3, "none a minute old yet")
            // The cutoff is t0 + 1000: the record at it stays, the one before goes.
            try Self.open(directory, bounds: minute, wall: Self.t0 + 61_000).prune(before: 0)
            #expect(try Self.kept(directory).map(\.record) == Array(three[1...]))
            var summary = try Self.summary(directory)
            #expect(summary.dropped == 1 && summary.droppedUnexported == 0)
            try Self.open(directory, bounds: minute, wall: Self.t0 + 70_000).prune(before: 0)
            #expect(try Self.kept(directory).isEmpty)
            summary = try Self.summary(directory)
            #expect(summary.dropped == 3 && summary.droppedUnexported == 2)
            #expect(summary.records == 0 && summary.bytes == 0)
        }
    }

    // MARK: Export mark

    @Test func theExportMarkIsKeptAcrossReopeningAndNeverMovesBack() async throws {
        try await withTemporaryDirectory { directory in
            try Self.save(try Self.open(directory), Self.records(3))
            try Self.save(try Self.open(directory), [], exportedThrough: 2)
            #expect(try Self.summary(directory).exportedThrough == 2)
            try Self.save(try Self.open(directory), [], exportedThrough: 1)
            #expect(try Self.summary(directory).exportedThrough == 2)
            let reader = try SQLiteAuditReader(directory: directory)
            #expect(try reader.entries(after: reader.summary().exportedThrough, limit: 10).map(\.sequence) == [3])
        }
    }

    // MARK: The reader

    @Test func theReaderNeverCreatesAMissingJournal() async throws {
        try await withTemporaryDirectory { directory in
            let error = #expect(throws: JournalError.self) { try SQLiteAuditReader(directory: directory) }
            #expect(error?.reason.hasPrefix("cannot read the audit in \(directory)/journal.sqlite") == true)
            #expect(!FileManager.default.fileExists(atPath: directory + "/journal.sqlite"))
        }
    }

    @Test func theReadersConnectionRefusesWrites() async throws {
        try await withTemporaryDirectory { directory in
            try Self.save(try Self.open(directory), Self.records(1))
            let reader = try SQLiteAuditReader(directory: directory)
            let database = try #require(Mirror(reflecting: reader).descendant("database") as? SQLiteDatabase)
            let error = #expect(throws: SQLiteError.self) { try database.execute("UPDATE audit_state SET exported_through = 99") }
            #expect(error?.kind == .notWritable)
            #expect(try reader.summary().exportedThrough == 0)
        }
    }
}
