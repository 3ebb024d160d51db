import Synchronization
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct JournalAccessTests {
    let now: Milliseconds = 1_700_000_000_000
    let interval = JournalAccess.reopenInterval

    /// An opener that fails while `opening` holds a reason, and otherwise hands out `journal`.
    final class Opener: Sendable {
        let journal = InMemoryJournal()
        let failure = Mutex<String?>(nil)
        let opened = Mutex(0)

        var open: JournalAccess.Opener {
            { () throws(JournalError) -> any BeaconJournal in
                self.opened.withLock { $0 += 1 }
                if let reason = self.failure.withLock({ $0 }) { throw JournalError(reason: reason) }
                return self.journal
            }
        }
    }

    @Test func withoutAnOpenerEverythingStaysInMemoryAndNothingIsAProblem() {
        var access = JournalAccess(opener: nil)
        #expect(!access.isConfigured)
        #expect(!access.mayOpen(now: now))
        #expect(access.nextOpenTime == nil)
        #expect((try? access.open(now: now).get()) != nil)
        #expect(access.use(now: now) { _ in 1 } == nil)
        #expect(access.problem == nil)
    }

    @Test func anOpenJournalRunsOperations() throws {
        let opener = Opener()
        var access = JournalAccess(opener: opener.open)
        #expect(access.isConfigured)
        #expect(access.mayOpen(now: now))
        try access.open(now: now).get()
        #expect(access.problem == nil)
        #expect(!access.mayOpen(now: now), "already open")
        #expect(access.nextOpenTime == nil)
        let saved = access.use(now: now) { journal throws(JournalError) in
            try journal.save([], session: nil)
            return 42
        }
        #expect(try saved?.get() == 42)
        #expect(opener.journal.calls == [.save])
        // Opening an open journal does not open it again.
        try access.open(now: now).get()
        #expect(opener.opened.withLock { $0 } == 1)
    }

    @Test func aFailedOpenIsAProblemUntilTheNextOpenTime() {
        let opener = Opener()
        opener.failure.withLock { $0 = "no space left on device" }
        var access = JournalAccess(opener: opener.open)
        guard case .failure(let error) = access.open(now: now) else {
            Issue.record("a failing opener opened")
            return
        }
        #expect(error.reason == "no space left on device")
        #expect(access.problem == "no space left on device")
        #expect(access.nextOpenTime == now + interval)
        #expect(!access.mayOpen(now: now))
        #expect(!access.mayOpen(now: now + interval - 1))
        #expect(access.mayOpen(now: now + interval))
        #expect(access.use(now: now) { _ in 1 } == nil, "nothing to use while closed")
    }

    @Test func aFailingOperationClosesTheJournalAndALaterOpenRecovers() throws {
        let opener = Opener()
        var access = JournalAccess(opener: opener.open)
        try access.open(now: now).get()
        opener.journal.fail([.save])
        let failed = access.use(now: now + 5) { journal throws(JournalError) in try journal.save([], session: nil) }
        guard case .failure(let error)? = failed else {
            Issue.record("a failing save did not fail")
            return
        }
        #expect(error.reason.contains("disk full"))
        #expect(access.problem == error.reason)
        #expect(access.nextOpenTime == now + 5 + interval)
        #expect(access.use(now: now + 6) { _ in 1 } == nil, "closed after the failure")
        #expect(!access.mayOpen(now: now + 5 + interval - 1))

        opener.journal.fail([])
        #expect(access.mayOpen(now: now + 5 + interval))
        try access.open(now: now + 5 + interval).get()
        #expect(access.problem == nil)
        #expect(access.nextOpenTime == nil)
        #expect(try access.use(now: now + 5 + interval) { journal throws(JournalError) in try journal.unfinishedDeliveries() }?.get() == [])
    }

    @Test func aReopenThatFailsAgainPushesTheNextOpenTime() {
        let opener = Opener()
        opener.failure.withLock { $0 = "read-only file system" }
        var access = JournalAccess(opener: opener.open)
        _ = access.open(now: now)
        _ = access.open(now: now + interval)
        #expect(access.nextOpenTime == now + 2 * interval)
        #expect(access.problem == "read-only file system")
        opener.failure.withLock { $0 = nil }
        #expect((try? access.open(now: now + 2 * interval).get()) != nil)
        #expect(access.problem == nil)
    }
}
