import Foundation
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The SQLite journal on real files, each test in a fresh directory.
///
/// Serialized: each test blocks its thread on synced writes, and the rest of the test run
/// needs the others.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SQLiteBeaconJournalTests {
    static let t0 = Fixture.t0

    static func delivery(
        session: String = "s1", adBreak: String = "pod-1", ad: String = "ad-1", event: TrackingEventType = .impression,
        eventStart: Milliseconds = t0, url: String = "http://127.0.0.1:4647/beacon?cn=impression", occurrence: Milliseconds = 0,
        state: BeaconDelivery.State = .due, dueAt: Milliseconds = t0, updatedAt: Milliseconds? = nil
    ) -> BeaconDelivery {
        BeaconDelivery(
            key: .init(sessionKey: session, adBreakID: adBreak, adID: ad, event: event, eventStart: eventStart, url: url, occurrence: occurrence),
            reference: EventReference(adBreakID: adBreak, adIndex: 0, eventIndex: 0), state: state, dueAt: dueAt, updatedAt: updatedAt)
    }

    static func snapshot(
        sessionID: String?, mediaURL: String = "https://ssai.example/live/master.m3u8", savedAt: Milliseconds
    ) -> SessionSnapshot {
        let endpoints = SessionEndpoints(
            mediaURL: mediaURL, manifestURL: "https://ssai.example/live/index.m3u8?sessid=\(sessionID ?? "")",
            trackingURL: "https://ssai.example/live/metadata?sessid=\(sessionID ?? "")", sessionID: sessionID)
        return SessionSnapshot(endpoints: endpoints, adBreaks: [], dataRange: nil, played: [], playhead: nil, savedAt: savedAt)
    }

    /// A journal in `<directory>/state`, so that the journal itself creates its directory.
    static func withJournal<R>(_ body: (SQLiteBeaconJournal, String) throws -> R) async throws -> R {
        try await withTemporaryDirectory { root in
            let directory = root + "/state"
            return try body(try SQLiteBeaconJournal(directory: directory, time: .system), directory)
        }
    }

    static func mode(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    // MARK: Round trips

    @Test func everyFieldOfADeliveryRoundTrips() async throws {
        try await Self.withJournal { journal, _ in
            let full = BeaconDelivery(
                key: .init(
                    sessionKey: "sess-ü", adBreakID: "pod \"7\"", adID: "ad-'3'", event: .firstQuartile, eventStart: Self.t0 + 7_500,
                    url: "https://t.example/q?x=1&y=%20é", occurrence: Self.t0 + 9_123),
                reference: EventReference(adBreakID: "pod \"7\"", adIndex: 3, eventIndex: 11), state: .inFlight, attempts: 4,
                lastStatus: 503, lastError: "HTTP 503: service unavailable\nretrying", dueAt: Self.t0 + 8_000,
                nextAttemptAt: Self.t0 + 64_000, updatedAt: Self.t0 + 33_000, resend: true)
            // The smallest: no session id (empty), no status, no error, an unknown event type.
            let bare = BeaconDelivery(
                key: .init(
                    sessionKey: "", adBreakID: "", adID: "", event: TrackingEventType(rawValue: "vendorThing"), eventStart: -1, url: "",
                    occurrence: 0),
                reference: EventReference(adBreakID: "", adIndex: 0, eventIndex: 0), state: .failed, attempts: 0, dueAt: .min,
                nextAttemptAt: .max, updatedAt: 0)
            try journal.save([full, bare], session: nil)

            #expect(try journal.deliveries(ofSession: "sess-ü") == [full])
            #expect(try journal.deliveries(ofSession: "") == [bare])
            #expect(try journal.unfinishedDeliveries() == [full])
        }
    }

    /// A row another connection deleted (a second daemon's prune) is written again, not lost.
    @Test func aDeliveryWhoseRowWasDeletedElsewhereIsInsertedAgain() async throws {
        try await Self.withJournal { journal, directory in
            var delivery = Self.delivery(state: .delivered, updatedAt: Self.t0)
            try journal.save([delivery], session: nil)
            try SQLiteBeaconJournal(directory: directory, time: .system).prune(before: Self.t0 + 1)
            #expect(try journal.deliveries(ofSession: "s1").isEmpty)
            delivery.state = .due
            delivery.resend = true
            try journal.save([delivery], session: nil)
            #expect(try journal.deliveries(ofSession: "s1") == [delivery])
        }
    }

    /// After its own prune, the journal finds the rows it kept by key again.
    @Test func aDeliveryKeptByPruneIsUpdatedAfterIt() async throws {
        try await Self.withJournal { journal, _ in
            var kept = Self.delivery(url: "http://127.0.0.1:4647/kept", state: .inFlight, updatedAt: Self.t0)
            let pruned = Self.delivery(url: "http://127.0.0.1:4647/pruned", state: .delivered, updatedAt: Self.t0)
            try journal.save([kept, pruned], session: nil)
            try journal.prune(before: Self.t0 + 1)
            kept.state = .delivered
            kept.updatedAt = Self.t0 + 5
            try journal.save([kept], session: nil)
            #expect(try journal.deliveries(ofSession: "s1") == [kept])
        }
    }

    @Test func aSnapshotWithAdBreaksEventsReportingStatesAndPlayedStretchesRoundTrips() async throws {
        try await Self.withJournal { journal, _ in
            var adBreak = Fixture.adBreak(id: "pod-1", ads: [Fixture.ad(id: "ad-1", start: Self.t0), Fixture.ad(id: "ad-2", start: Self.t0 + 30_000)])
            adBreak.ads[0].trackingEvents[0].reportingState = .done
            adBreak.ads[0].trackingEvents[1].reportingState = .failed
            adBreak.ads[1].trackingEvents[0].reportingState = .connecting
            var snapshot = Self.snapshot(sessionID: "abc", savedAt: Self.t0 + 60_000)
            snapshot.adBreaks = [adBreak, Fixture.adBreak(id: "pod-2", start: Self.t0 + 600_000)]
            snapshot.dataRange = DataRange(start: Self.t0 - 600_000, end: Self.t0 + 630_000)
            snapshot.played = [[Self.t0 - 10_000, Self.t0 + 45_000], [Self.t0 + 50_000, Self.t0 + 51_250]]
            snapshot.playhead = Self.t0 + 51_250
            try journal.save([], session: snapshot)

            let found = try journal.session(sessionID: "abc", mediaURL: snapshot.endpoints.mediaURL, savedSince: 0)
            #expect(found == snapshot)
            #expect(found?.adBreaks[0].ads[1].trackingEvents[0].reportingState == .connecting)
        }
    }

    @Test func savingTheSameKeyAgainUpdatesTheOneRow() async throws {
        try await Self.withJournal { journal, _ in
            var delivery = Self.delivery()
            try journal.save([delivery], session: nil)
            delivery.state = .inFlight
            delivery.attempts = 1
            try journal.save([delivery], session: nil)
            delivery.state = .due
            delivery.attempts = 2
            delivery.lastStatus = 500
            delivery.lastError = "HTTP 500"
            delivery.nextAttemptAt = Self.t0 + 2_000
            delivery.updatedAt = Self.t0 + 1_000
            delivery.reference.eventIndex = 5
            // The same event fired again by a user action is its own delivery.
            let again = Self.delivery(occurrence: Self.t0 + 4_000)
            try journal.save([delivery, again], session: nil)
            #expect(try journal.deliveries(ofSession: "s1") == [delivery, again])

            // Twice in one save, by its known row: the later one stands.
            var stale = delivery
            delivery.state = .delivered
            stale.state = .failed
            try journal.save([stale, delivery], session: nil)
            #expect(try journal.deliveries(ofSession: "s1") == [delivery, again])

            // Saved again once finished, when the journal no longer keeps its row: still one row.
            delivery.updatedAt = Self.t0 + 9_000
            try journal.save([delivery], session: nil)
            #expect(try journal.deliveries(ofSession: "s1") == [delivery, again])
        }
    }

    @Test func unfinishedDeliveriesAreTheDueAndInFlightOnesOldestFirst() async throws {
        try await Self.withJournal { journal, _ in
            let late = Self.delivery(session: "s2", url: "http://a/late", dueAt: Self.t0 + 3_000)
            let first = Self.delivery(url: "http://a/first", state: .inFlight, dueAt: Self.t0 + 1_000)
            let tieSavedFirst = Self.delivery(url: "http://a/tie-1", dueAt: Self.t0 + 2_000)
            let tieSavedSecond = Self.delivery(url: "http://a/tie-2", dueAt: Self.t0 + 2_000)
            let delivered = Self.delivery(url: "http://a/done", state: .delivered, dueAt: Self.t0)
            let failed = Self.delivery(url: "http://a/failed", state: .failed, dueAt: Self.t0)
            try journal.save([late, delivered, tieSavedFirst], session: nil)
            try journal.save([failed, tieSavedSecond, first], session: nil)

            #expect(try journal.unfinishedDeliveries() == [first, tieSavedFirst, tieSavedSecond, late])
            var done = first
            done.state = .delivered
            try journal.save([done], session: nil)
            #expect(try journal.unfinishedDeliveries() == [tieSavedFirst, tieSavedSecond, late])
        }
    }

    @Test func aSessionIsFoundByItsIDOrElseByMediaURLTheMostRecentSinceTheCutoff() async throws {
        try await Self.withJournal { journal, _ in
            let media = "https://ssai.example/live/master.m3u8"
            let old = Self.snapshot(sessionID: "old", savedAt: Self.t0)
            let recent = Self.snapshot(sessionID: "recent", savedAt: Self.t0 + 10_000)
            let otherStream = Self.snapshot(sessionID: "other", mediaURL: "https://ssai.example/other.m3u8", savedAt: Self.t0 + 20_000)
            try journal.save([], session: old)
            try journal.save([], session: recent)
            try journal.save([], session: otherStream)

            #expect(try journal.session(sessionID: nil, mediaURL: media, savedSince: 0) == recent)
            #expect(try journal.session(sessionID: "", mediaURL: media, savedSince: 0) == recent, "an empty id is no id")
            #expect(try journal.session(sessionID: "old", mediaURL: media, savedSince: 0) == old)
            #expect(try journal.session(sessionID: "old", mediaURL: media, savedSince: Self.t0 + 1) == nil)
            #expect(try journal.session(sessionID: "unknown", mediaURL: media, savedSince: 0) == nil, "another session of the stream is not this one")
            #expect(try journal.session(sessionID: nil, mediaURL: media, savedSince: Self.t0 + 10_000) == recent, "saved at the cutoff counts")
            #expect(try journal.session(sessionID: nil, mediaURL: media, savedSince: Self.t0 + 10_001) == nil)
            #expect(try journal.session(sessionID: nil, mediaURL: "https://nowhere.example/", savedSince: 0) == nil)

            // Saving a session again replaces its snapshot, and the latest save wins the lookup.
            var resaved = old
            resaved.savedAt = Self.t0 + 30_000
            resaved.playhead = Self.t0 + 29_000
            try journal.save([], session: resaved)
            #expect(try journal.session(sessionID: nil, mediaURL: media, savedSince: 0) == resaved)
            #expect(try journal.session(sessionID: "old", mediaURL: media, savedSince: Self.t0 + 1) == resaved)

            // Without a session id, the stream's one snapshot is replaced in place.
            let anonymous = Self.snapshot(sessionID: nil, mediaURL: "https://plain.example/m.m3u8", savedAt: Self.t0)
            var anonymousLater = anonymous
            anonymousLater.savedAt = Self.t0 + 5_000
            try journal.save([], session: anonymous)
            try journal.save([], session: anonymousLater)
            #expect(try journal.session(sessionID: nil, mediaURL: "https://plain.example/m.m3u8", savedSince: 0) == anonymousLater)
        }
    }

    @Test func pruneDeletesFinishedOldDeliveriesAndOldSessionsWithNothingUnfinished() async throws {
        try await Self.withJournal { journal, _ in
            let cutoff = Self.t0 + 100_000
            let oldDelivered = Self.delivery(session: "a", url: "http://a/1", state: .delivered, updatedAt: cutoff - 1)
            let oldFailed = Self.delivery(session: "a", url: "http://a/2", state: .failed, updatedAt: cutoff - 1)
            let recentDelivered = Self.delivery(session: "a", url: "http://a/3", state: .delivered, updatedAt: cutoff)
            let oldDue = Self.delivery(session: "b", url: "http://b/1", state: .due, updatedAt: cutoff - 50_000)
            let oldInFlight = Self.delivery(session: "c", url: "http://c/1", state: .inFlight, updatedAt: cutoff - 50_000)
            try journal.save([oldDelivered, oldFailed, recentDelivered, oldDue, oldInFlight], session: nil)
            let sessionA = Self.snapshot(sessionID: "a", savedAt: cutoff - 1)
            let sessionB = Self.snapshot(sessionID: "b", savedAt: cutoff - 1)
            let sessionC = Self.snapshot(sessionID: "c", savedAt: cutoff - 1)
            let sessionD = Self.snapshot(sessionID: "d", savedAt: cutoff)
            for session in [sessionA, sessionB, sessionC, sessionD] { try journal.save([], session: session) }

            try journal.prune(before: cutoff)

            #expect(try journal.deliveries(ofSession: "a") == [recentDelivered])
            #expect(try journal.deliveries(ofSession: "b") == [oldDue])
            #expect(try journal.deliveries(ofSession: "c") == [oldInFlight])
            let media = sessionA.endpoints.mediaURL
            #expect(try journal.session(sessionID: "a", mediaURL: media, savedSince: 0) == nil, "old, and only finished deliveries")
            #expect(try journal.session(sessionID: "b", mediaURL: media, savedSince: 0) == sessionB, "a delivery is still due")
            #expect(try journal.session(sessionID: "c", mediaURL: media, savedSince: 0) == sessionC, "a delivery is in flight")
            #expect(try journal.session(sessionID: "d", mediaURL: media, savedSince: 0) == sessionD, "saved at the cutoff")
        }
    }

    // MARK: Durability and files

    @Test func aNewInstanceOnTheSameDirectoryReadsEverything() async throws {
        try await withTemporaryDirectory { root in
            let directory = root + "/state"
            let deliveries = (0..<5).map { Self.delivery(url: "http://a/\($0)", state: $0 == 4 ? .delivered : .due, dueAt: Self.t0 + Milliseconds($0)) }
            let session = Self.snapshot(sessionID: "s1", savedAt: Self.t0)
            do {
                let journal = try SQLiteBeaconJournal(directory: directory, time: .system)
                try journal.save(deliveries, session: session)
            }
            let reopened = try SQLiteBeaconJournal(directory: directory, time: .system)
            #expect(try reopened.deliveries(ofSession: "s1") == deliveries)
            #expect(try reopened.unfinishedDeliveries() == Array(deliveries.prefix(4)))
            #expect(try reopened.session(sessionID: "s1", mediaURL: session.endpoints.mediaURL, savedSince: 0) == session)
        }
    }

    @Test func theDirectoryIsPrivateToItsOwnerAndSoAreTheFiles() async throws {
        try await withTemporaryDirectory { root in
            let directory = root + "/var/lib/beaconctl"
            let journal = try SQLiteBeaconJournal(directory: directory, time: .system)
            try journal.save([Self.delivery()], session: nil)
            #expect(journal.path == directory + "/journal.sqlite")
            #expect(Self.mode(of: root + "/var") == 0o700)
            #expect(Self.mode(of: directory) == 0o700)
            #expect(Self.mode(of: journal.path) == 0o600)
            #expect(Self.mode(of: journal.path + "-wal") == 0o600, "SQLite gives its log the file's mode")
        }
    }

    @Test func anExistingDirectoryKeepsItsMode() async throws {
        try await withTemporaryDirectory { root in
            #expect(chmod(root, 0o750) == 0)
            let journal = try SQLiteBeaconJournal(directory: root, time: .system)
            #expect(Self.mode(of: root) == 0o750)
            #expect(Self.mode(of: journal.path) == 0o600)
        }
    }

    // MARK: Errors

    @Test func aFileThatIsNotADatabaseIsAJournalError() async throws {
        try await withTemporaryDirectory { root in
            let text = String(repeating: "this is not a database, only text that happens to be here.\n", count: 100)
            try text.write(toFile: root + "/journal.sqlite", atomically: false, encoding: .utf8)
            let error = try #require(throws: JournalError.self) { try SQLiteBeaconJournal(directory: root, time: .system) }
            #expect(error.reason.contains("journal.sqlite is not a database"), "\(error)")
        }
    }

    @Test func aDirectoryBelowARegularFileIsAJournalError() async throws {
        try await withTemporaryDirectory { root in
            try "x".write(toFile: root + "/file", atomically: false, encoding: .utf8)
            let error = try #require(throws: JournalError.self) { try SQLiteBeaconJournal(directory: root + "/file/state", time: .system) }
            #expect(error.reason == "cannot create the journal directory \(root)/file/state: Not a directory")
        }
    }

    @Test func aJournalDirectoryThatIsAFileIsAJournalError() async throws {
        try await withTemporaryDirectory { root in
            try "x".write(toFile: root + "/file", atomically: false, encoding: .utf8)
            let error = try #require(throws: JournalError.self) { try SQLiteBeaconJournal(directory: root + "/file", time: .system) }
            #expect(error.reason.contains("is not a directory"), "\(error)")
        }
    }

    /// Root writes through permission bits: only an immutable directory (`chattr +i`) stops it.
    static let canMakeReadOnlyDirectory: Bool = getuid() != 0 || ImmutableDirectory.isSupported

    @Test(.enabled(if: canMakeReadOnlyDirectory, "running as root and chattr +i does not work here: no read-only directory to test"))
    func aReadOnlyDirectoryIsAJournalError() async throws {
        try await withTemporaryDirectory { root in
            let empty = root + "/empty"
            let existing = root + "/existing"
            #expect(mkdir(empty, 0o700) == 0)
            do { _ = try SQLiteBeaconJournal(directory: existing, time: .system) }
            let locks = try [empty, existing].map { try ImmutableDirectory(path: $0) }
            defer { locks.forEach { $0.release() } }

            let cannotCreate = try #require(throws: JournalError.self) { try SQLiteBeaconJournal(directory: empty, time: .system) }
            #expect(cannotCreate.reason.contains("the journal directory \(empty) is not writable"), "\(cannotCreate)")
            // The file is there, but its write-ahead log cannot be made beside it.
            let cannotLog = try #require(throws: JournalError.self) { try SQLiteBeaconJournal(directory: existing, time: .system) }
            #expect(cannotLog.reason.contains("the journal directory \(existing) is not writable"), "\(cannotLog)")
        }
    }

    @Test func aJournalOfANewerSchemaIsRefused() async throws {
        try await withTemporaryDirectory { root in
            let path = try SQLiteBeaconJournal(directory: root, time: .system).path
            let newer = JournalSchema.version + 1
            try SQLiteDatabase(path: path, create: false).execute("PRAGMA user_version = \(newer)")
            let error = try #require(throws: JournalError.self) { try SQLiteBeaconJournal(directory: root, time: .system) }
            #expect(error.reason.contains("schema version \(newer)"), "\(error)")
            #expect(error.reason.contains("newer release"), "\(error)")
        }
    }

    @Test func aSnapshotThatNoLongerDecodesIsAnErrorForThatLookupOnly() async throws {
        try await Self.withJournal { journal, _ in
            let broken = Self.snapshot(sessionID: "broken", savedAt: Self.t0)
            let fine = Self.snapshot(sessionID: "fine", savedAt: Self.t0)
            try journal.save([Self.delivery(session: "broken")], session: broken)
            try journal.save([], session: fine)
            try SQLiteDatabase(path: journal.path, create: false)
                .execute("UPDATE sessions SET snapshot = CAST('{\"endpoints\": 1}' AS BLOB) WHERE session_id = 'broken'")

            let error = try #require(throws: JournalError.self) {
                try journal.session(sessionID: "broken", mediaURL: broken.endpoints.mediaURL, savedSince: 0)
            }
            #expect(error.reason.contains("the saved session of broken"), "\(error)")
            #expect(error.reason.contains("does not decode"), "\(error)")
            #expect(try journal.session(sessionID: "fine", mediaURL: fine.endpoints.mediaURL, savedSince: 0) == fine)
            #expect(try journal.deliveries(ofSession: "broken").count == 1)
        }
    }

    @Test func aDeliveryReferringToAnotherAdBreakThanItsKeyIsRefusedAndNothingIsSaved() async throws {
        try await Self.withJournal { journal, _ in
            var stray = Self.delivery(url: "http://a/stray")
            stray.reference.adBreakID = "pod-2"
            let error = try #require(throws: JournalError.self) { try journal.save([Self.delivery(), stray], session: nil) }
            #expect(error.reason.contains("keyed to pod pod-1 but refers to pod pod-2"), "\(error)")
            #expect(try journal.unfinishedDeliveries().isEmpty)
        }
    }

    @Test func aLockHeldByAnotherConnectionIsABusyJournalError() async throws {
        try await withTemporaryDirectory { directory in
            let journal = try SQLiteBeaconJournal(directory: directory, time: .system, busyTimeoutMilliseconds: 50)
            let other = try SQLiteDatabase(path: journal.path, create: false)
            try other.execute("BEGIN IMMEDIATE")
            defer { try? other.execute("ROLLBACK") }
            let error = try #require(throws: JournalError.self) { try journal.save([Self.delivery()], session: nil) }
            #expect(error.reason.hasPrefix("saving 1 delivery: \(journal.path) is busy"), "\(error)")
        }
    }
}

/// A directory made immutable with `chattr +i`, which stops even root from creating files in it.
struct ImmutableDirectory {
    let path: String

    init(path: String) throws {
        self.path = path
        if getuid() == 0 {
            try #require(Self.chattr("+i", path), "chattr +i \(path)")
        } else {
            try #require(chmod(path, 0o500) == 0)
        }
    }

    func release() {
        if getuid() == 0 { _ = Self.chattr("-i", path) } else { _ = chmod(path, 0o700) }
    }

    /// Whether `chattr +i` works on this file system, for this process.
    static let isSupported: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("bc-chattr-\(getpid())").path
        guard mkdir(probe, 0o700) == 0 else { return false }
        defer { rmdir(probe) }
        guard chattr("+i", probe) else { return false }
        defer { _ = chattr("-i", probe) }
        guard mkdir(probe + "/x", 0o700) == 0 else { return true }
        rmdir(probe + "/x")
        return false
    }()

    private static func chattr(_ flag: String, _ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

extension SQLiteBeaconJournalTests {
    /// CPU-bound for seconds: `make test` runs it in its sweeps step, apart from the tests that
    /// need the cooperative pool on time (loopback servers, timers, waits).
    @Suite(.timeLimit(.minutes(5))) struct Sweeps {
        private typealias Suite = SQLiteBeaconJournalTests

        /// A week of live TV saves and prunes continuously: the file must come back down, not only
        /// stop growing, once the deliveries it held are pruned.
        @Test func tenThousandDeliveriesPrunedLeaveASmallerFile() async throws {
            try await Suite.withJournal { journal, _ in
                func fileSize() -> Int64 { Suite.size(of: journal.path) + Suite.size(of: journal.path + "-wal") }
                func fill(round: Int) throws {
                    for batch in 0..<10 {
                        let deliveries = (0..<1_000).map { index in
                            Suite.delivery(
                                session: "session-\(round)", adBreak: "pod-\(batch)", ad: "ad-\(index % 4)",
                                url: "https://beacons.example/track?round=\(round)&batch=\(batch)&index=\(index)&padding=\(String(repeating: "x", count: 120))",
                                state: .delivered, dueAt: Suite.t0 + Milliseconds(batch * 1_000 + index), updatedAt: Suite.t0 + Milliseconds(round))
                        }
                        try journal.save(deliveries, session: nil)
                    }
                }
                try fill(round: 0)
                let full = fileSize()
                try journal.prune(before: Suite.t0 + 1)
                let pruned = fileSize()
                #expect(try journal.deliveries(ofSession: "session-0").isEmpty)
                #expect(pruned < full / 4, "\(full) bytes before pruning, \(pruned) after")

                try fill(round: 1)
                let refilled = fileSize()
                #expect(refilled <= full + full / 10, "the second round reuses the space: \(full), then \(refilled)")
                try journal.prune(before: Suite.t0 + 2)
                #expect(fileSize() <= pruned + pruned / 10, "\(pruned) after the first prune, \(fileSize()) after the second")
            }
        }
    }
}
