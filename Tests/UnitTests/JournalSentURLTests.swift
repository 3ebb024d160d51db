import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The URL as sent is journaled with its delivery (schema 3): a resend after a restart is the same
/// request; a journal of version 2 opens and its deliveries send the URL of their key, as before.
@Suite(.serialized, .timeLimit(.minutes(2))) struct JournalSentURLTests {
    static let metadataURL = "http://127.0.0.1:4647/b?cb=[CACHEBUSTING]&ts=[TIMESTAMP]"
    static let sentURL = "http://127.0.0.1:4647/b?cb=12345678&ts=2023-01-31T03%3A25%3A34.076%2B00%3A00"

    static func delivery(url: String, sentURL: String? = nil, state: BeaconDelivery.State = .inFlight) -> BeaconDelivery {
        BeaconDelivery(
            key: .init(sessionKey: "s1", adBreakID: "p", adID: "a", event: .start, eventStart: 5, url: url, occurrence: 0), sentURL: sentURL,
            reference: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 1), state: state, attempts: 1, dueAt: 90_000)
    }

    static func open(_ directory: String) throws -> SQLiteBeaconJournal {
        try SQLiteBeaconJournal(directory: directory, time: TimeSource(bootID: "A", instant: { 100_000 }, wall: { Fixture.t0 }))
    }

    static func storedSentURLs(_ directory: String) throws -> [String?] {
        try SQLiteDatabase(path: directory + "/" + JournalFile.name, create: false).withStatement("SELECT sent_url FROM deliveries ORDER BY id") {
            row throws(SQLiteError) in
            var urls: [String?] = []
            while try row.step() { urls.append(row.optionalText(at: 0)) }
            return urls
        }
    }

    @Test func theURLAsSentComesBackAfterARestartAndIsStoredOnlyWhenItDiffers() async throws {
        try await withTemporaryDirectory { directory in
            let expanded = Self.delivery(url: Self.metadataURL, sentURL: Self.sentURL)
            let plain = Self.delivery(url: "http://127.0.0.1:4647/plain")
            try Self.open(directory).save([expanded, plain], session: nil)
            let resumed = try Self.open(directory).unfinishedDeliveries()
            #expect(resumed.map(\.key.url) == [Self.metadataURL, "http://127.0.0.1:4647/plain"])
            #expect(resumed.map(\.sentURL) == [Self.sentURL, "http://127.0.0.1:4647/plain"])
            #expect(try Self.storedSentURLs(directory) == [Self.sentURL, nil], "a URL without macros is not stored twice")
            // A later state change (by row id) keeps it.
            var delivered = resumed[0]
            delivered.state = .delivered
            let journal = try Self.open(directory)
            try journal.save([resumed[0]], session: nil)
            try journal.save([delivered], session: nil)
            #expect(try journal.deliveries(ofSession: "s1").first { $0.key.url == Self.metadataURL }?.sentURL == Self.sentURL)
        }
    }

    @Test func aJournalOfVersion2OpensAndItsDeliveriesSendTheURLOfTheirKey() async throws {
        try await withTemporaryDirectory { directory in
            let path = try JournalFile.prepare(directory: directory)
            let database = try SQLiteDatabase(path: path, create: false)
            try database.execute(JournalRebootTests.version1)
            try database.execute(Self.version1To2)
            try database.execute(
                """
                INSERT INTO deliveries (session_id, pod_id, ad_id, event, event_start, url, occurrence, ad_index, event_index,
                    state, attempts, last_status, last_error, due_at, next_attempt_at, updated_at, resend, due_wall_at, updated_wall_at)
                VALUES ('s1', 'p', 'a', 'verificationNotExecuted', 5, 'http://127.0.0.1:4647/v?r=2', 0, 0, 1, 'inFlight', 1, NULL, NULL,
                    90000, 90000, 90000, 0, \(Fixture.t0 - 10_000), \(Fixture.t0 - 10_000));
                """)
            let journal = try Self.open(directory)
            let delivery = try #require(try journal.unfinishedDeliveries().first)
            #expect(delivery.key.url == "http://127.0.0.1:4647/v?r=2")
            #expect(delivery.sentURL == "http://127.0.0.1:4647/v?r=2")
            let version = try SQLiteDatabase(path: path, create: false).withStatement("PRAGMA user_version") { row throws(SQLiteError) in
                try row.step() ? row.int64(at: 0) : 0
            }
            #expect(version == 3)
            try journal.save([Self.delivery(url: Self.metadataURL, sentURL: Self.sentURL)], session: nil)
            #expect(try Self.storedSentURLs(directory) == [nil, Self.sentURL])
        }
    }

    /// The step from version 1 to 2, as the release of version 2 made it.
    static let version1To2 = """
        ALTER TABLE deliveries ADD COLUMN due_wall_at INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE deliveries ADD COLUMN updated_wall_at INTEGER NOT NULL DEFAULT 0;
        UPDATE deliveries SET due_wall_at = due_at, updated_wall_at = updated_at;
        ALTER TABLE sessions ADD COLUMN saved_wall_at INTEGER NOT NULL DEFAULT 0;
        UPDATE sessions SET saved_wall_at = saved_at;
        CREATE TABLE IF NOT EXISTS clock (boot_id TEXT NOT NULL);
        INSERT INTO clock (boot_id) SELECT '' WHERE NOT EXISTS (SELECT 1 FROM clock);
        PRAGMA user_version = 2;
        """
}
