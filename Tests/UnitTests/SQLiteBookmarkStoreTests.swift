import Foundation
import Testing

@testable import BeaconDomain
@testable import BeaconStorage
@testable import BeaconTesting

/// Bookmarks in the journal's `bookmarks` table: kept across opens, the last one per content id,
/// made by the journal's open when missing; a load's reply carries the one it finds.
@Suite(.timeLimit(.minutes(2))) struct SQLiteBookmarkStoreTests {
    static let time = TimeSource(bootID: "A", instant: { 1_000 }, wall: { 1_700_000_000_000 })

    @Test func theLastBookmarkOfEachContentIsKeptAcrossOpens() async throws {
        try await withTemporaryDirectory { directory in
            _ = try SQLiteBeaconJournal(directory: directory, time: Self.time)
            let store = SQLiteBookmarkStore(directory: directory)
            #expect(try store.bookmark(contentID: "c1") == nil)
            try store.saveBookmark(contentID: "c1", position: 65_000, savedAt: 1)
            try store.saveBookmark(contentID: "c1", position: 70_500, savedAt: 2)
            try store.saveBookmark(contentID: "c2", position: 1_000, savedAt: 3)
            let reopened = SQLiteBookmarkStore(directory: directory)
            #expect(try reopened.bookmark(contentID: "c1") == 70_500)
            #expect(try reopened.bookmark(contentID: "c2") == 1_000)
            #expect(reopened.resumePosition(for: HeartbeatOptions(flag: true, contentID: "c1")) == 70.5)
            #expect(reopened.resumePosition(for: HeartbeatOptions(flag: false, contentID: "c1")) == nil)
            #expect(reopened.resumePosition(for: nil) == nil)
        }
    }

    @Test func aJournalWrittenBeforeTheTableGetsItAndKeepsItsVersion() async throws {
        try await withTemporaryDirectory { directory in
            let path = try JournalFile.prepare(directory: directory)
            _ = try SQLiteBeaconJournal(directory: directory, time: Self.time)
            let database = try SQLiteDatabase(path: path, create: false)
            try database.execute("DROP TABLE bookmarks")
            #expect(throws: JournalError.self) { try SQLiteBookmarkStore(directory: directory).bookmark(contentID: "c1") }
            _ = try SQLiteBeaconJournal(directory: directory, time: Self.time)
            let store = SQLiteBookmarkStore(directory: directory)
            try store.saveBookmark(contentID: "c1", position: 5_000, savedAt: 1)
            #expect(try store.bookmark(contentID: "c1") == 5_000)
            let version = try database.withStatement("PRAGMA user_version") { row throws(SQLiteError) in try row.step() ? row.int64(at: 0) : 0 }
            #expect(version == 3)
        }
    }

    @Test func aStoreWithoutItsTableFailsWithAReasonAndRecovers() async throws {
        try await withTemporaryDirectory { directory in
            let store = SQLiteBookmarkStore(directory: directory)
            // Before the journal made its tables: an error that says what was being done.
            do throws(JournalError) {
                try store.saveBookmark(contentID: "c1", position: 1, savedAt: 1)
                Issue.record("saved without a table")
            } catch {
                #expect(error.reason.hasPrefix("saving a bookmark"), "\(error)")
            }
            _ = try SQLiteBeaconJournal(directory: directory, time: Self.time)
            try store.saveBookmark(contentID: "c1", position: 1, savedAt: 1)
            #expect(try store.bookmark(contentID: "c1") == 1)
        }
    }

    @Test func theAnnouncementCarriesTheResumePositionWhenThereIsOne() {
        let endpoints = SessionEndpoints(mediaURL: "http://m", manifestURL: "http://m/v", trackingURL: "http://m/t", sessionID: "s1")
        #expect(endpoints.announcement == #"{"manifestUrl":"http://m/v","sessionId":"s1","trackingUrl":"http://m/t"}"#)
        #expect(endpoints.announcement(resumePosition: 70.5)
            == #"{"manifestUrl":"http://m/v","resumePosition":70.5,"sessionId":"s1","trackingUrl":"http://m/t"}"#)
    }
}
