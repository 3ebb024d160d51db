import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The journal's times across restarts, clock steps and reboots: instants of the monotonic clock
/// resume exactly within one boot, whatever the wall clock did; after a reboot they are estimated
/// from the wall-clock times kept beside them.
@Suite(.serialized, .timeLimit(.minutes(2))) struct JournalRebootTests {
    static let wall: Milliseconds = Fixture.t0
    static let hour: Milliseconds = 3_600_000
    static let maxAge: Milliseconds = 15 * 60_000

    /// Fixed clocks: boot `boot`, `instant` milliseconds since it, the wall clock at `wall`.
    static func time(boot: String, instant: Milliseconds, wall: Milliseconds) -> TimeSource {
        TimeSource(bootID: boot, instant: { instant }, wall: { wall })
    }

    static func open(_ directory: String, _ time: TimeSource) throws -> SQLiteBeaconJournal {
        try SQLiteBeaconJournal(directory: directory, time: time, beaconMaxAge: maxAge)
    }

    /// A delivery that fell due at instant 90 000, tried once, next attempt at 160 000.
    static let waiting = BeaconDelivery(
        key: .init(sessionKey: "s1", adBreakID: "p", adID: "a", event: .start, eventStart: 5, url: "http://127.0.0.1:4647/b", occurrence: 0),
        reference: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 1), state: .due, attempts: 1, lastError: "HTTP 503",
        dueAt: 90_000, nextAttemptAt: 160_000, updatedAt: 100_000)

    @Test func withinOneBootEveryInstantResumesAsItWasWhateverTheWallClockDid() async throws {
        try await withTemporaryDirectory { directory in
            try Self.open(directory, Self.time(boot: "A", instant: 100_000, wall: Self.wall)).save([Self.waiting], session: nil)
            for step in [Self.hour, -Self.hour, 0] {
                let reopened = try Self.open(directory, Self.time(boot: "A", instant: 110_000, wall: Self.wall + 10_000 + step))
                #expect(try reopened.unfinishedDeliveries() == [Self.waiting], "wall clock stepped by \(step) ms")
            }
        }
    }

    @Test func afterARebootTheAgeComesFromTheWallClockAndTheNextAttemptIsNow() async throws {
        try await withTemporaryDirectory { directory in
            try Self.open(directory, Self.time(boot: "A", instant: 100_000, wall: Self.wall)).save([Self.waiting], session: nil)
            // Rebooted 30 s later: 5 s since boot. Due 10 s before the save, so 40 s ago.
            let reopened = try Self.open(directory, Self.time(boot: "B", instant: 5_000, wall: Self.wall + 30_000))
            var expected = Self.waiting
            expected.dueAt = 5_000 - 40_000
            expected.nextAttemptAt = 5_000
            expected.updatedAt = 5_000 - 30_000
            #expect(try reopened.unfinishedDeliveries() == [expected])
            // Opened again in the same boot: moved once, not again.
            let again = try Self.open(directory, Self.time(boot: "B", instant: 6_000, wall: Self.wall + 31_000 + Self.hour))
            #expect(try again.unfinishedDeliveries() == [expected])
        }
    }

    @Test func afterARebootTheAgeIsAtLeastNothingAndAtMostTheMaxAge() async throws {
        for (wallAfter, age) in [(Self.wall + 3 * Self.hour, Self.maxAge), (0, 0), (Self.wall - Self.hour, 0)] {
            try await withTemporaryDirectory { directory in
                try Self.open(directory, Self.time(boot: "A", instant: 100_000, wall: Self.wall)).save([Self.waiting], session: nil)
                let reopened = try Self.open(directory, Self.time(boot: "B", instant: 5_000, wall: wallAfter))
                let delivery = try #require(try reopened.unfinishedDeliveries().first)
                #expect(delivery.dueAt == 5_000 - age, "wall clock \(wallAfter) after the reboot")
                #expect(delivery.nextAttemptAt == 5_000)
            }
        }
    }

    @Test func afterARebootRetentionCountsFromTheWallClock() async throws {
        try await withTemporaryDirectory { directory in
            let session = SQLiteBeaconJournalTests.snapshot(sessionID: "s1", savedAt: 100_000)
            var finished = Self.waiting
            finished.state = .delivered
            try Self.open(directory, Self.time(boot: "A", instant: 100_000, wall: Self.wall)).save([finished], session: session)
            // A minute later in the next boot: saved and finished 60 s ago.
            let journal = try Self.open(directory, Self.time(boot: "B", instant: 2_000, wall: Self.wall + 60_000))
            let media = session.endpoints.mediaURL
            #expect(try journal.session(sessionID: "s1", mediaURL: media, savedSince: 2_000 - 60_000) != nil)
            #expect(try journal.session(sessionID: "s1", mediaURL: media, savedSince: 2_000 - 59_999) == nil)
            try journal.prune(before: 2_000 - 60_000)
            #expect(try journal.deliveries(ofSession: "s1").count == 1)
            try journal.prune(before: 2_000 - 59_999)
            #expect(try journal.deliveries(ofSession: "s1").isEmpty)
            #expect(try journal.session(sessionID: "s1", mediaURL: media, savedSince: .min) == nil)
        }
    }

    /// Version 1 kept wall-clock times: a journal it wrote opens and its deliveries resume, their
    /// ages read from those times.
    @Test func aJournalOfVersion1OpensAndResumes() async throws {
        try await withTemporaryDirectory { directory in
            let path = try JournalFile.prepare(directory: directory)
            let database = try SQLiteDatabase(path: path, create: false)
            try database.execute(Self.version1)
            try database.execute(
                """
                INSERT INTO deliveries (session_id, pod_id, ad_id, event, event_start, url, occurrence, ad_index, event_index,
                    state, attempts, last_status, last_error, due_at, next_attempt_at, updated_at, resend)
                VALUES ('s1', 'p', 'a', 'start', 5, 'http://127.0.0.1:4647/b', 0, 0, 1, 'inFlight', 1, NULL, NULL,
                    \(Self.wall - 20_000), \(Self.wall - 20_000), \(Self.wall - 19_000), 0);
                INSERT INTO sessions (session_id, media_url, saved_at, snapshot) VALUES ('s1', 'https://ssai.example/m', \(Self.wall - 60_000), X'7B7D');
                """)
            let journal = try Self.open(directory, Self.time(boot: "B", instant: 1_000_000, wall: Self.wall))
            let delivery = try #require(try journal.unfinishedDeliveries().first)
            #expect(delivery.state == .inFlight)
            #expect(delivery.dueAt == 1_000_000 - 20_000)
            #expect(delivery.nextAttemptAt == 1_000_000)
            #expect(delivery.updatedAt == 1_000_000 - 19_000)
            let version = try SQLiteDatabase(path: path, create: false).withStatement("PRAGMA user_version") { row throws(SQLiteError) in
                try row.step() ? row.int64(at: 0) : 0
            }
            #expect(version == JournalSchema.version)
            try journal.prune(before: 1_000_000 - 59_999)
            #expect(try journal.unfinishedDeliveries().count == 1, "an unfinished delivery is never pruned")
        }
    }

    /// The schema of version 1, as that release created it.
    static let version1 = """
        CREATE TABLE deliveries (
            id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, pod_id TEXT NOT NULL, ad_id TEXT NOT NULL, event TEXT NOT NULL,
            event_start INTEGER NOT NULL, url TEXT NOT NULL, occurrence INTEGER NOT NULL, ad_index INTEGER NOT NULL,
            event_index INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('due', 'inFlight', 'delivered', 'failed')),
            attempts INTEGER NOT NULL, last_status INTEGER, last_error TEXT, due_at INTEGER NOT NULL,
            next_attempt_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, resend INTEGER NOT NULL,
            UNIQUE (session_id, pod_id, ad_id, event, event_start, url, occurrence)
        );
        CREATE INDEX deliveries_unfinished ON deliveries (due_at, id) WHERE state IN ('due', 'inFlight');
        CREATE INDEX deliveries_finished ON deliveries (updated_at) WHERE state IN ('delivered', 'failed');
        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, media_url TEXT NOT NULL, saved_at INTEGER NOT NULL,
            snapshot BLOB NOT NULL, UNIQUE (session_id, media_url)
        );
        CREATE INDEX sessions_by_media_url ON sessions (media_url, saved_at);
        CREATE INDEX sessions_by_saved_at ON sessions (saved_at);
        PRAGMA user_version = 1;
        """
}
