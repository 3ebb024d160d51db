import Dispatch
import Logging
import Synchronization
import Testing
@testable import BeaconDomain
@testable import BeaconRuntime
@testable import BeaconTesting

/// The journal writer: its commits group what was submitted meanwhile, and a request leaves only
/// once the write of its delivery in flight is acknowledged.
@Suite(.timeLimit(.minutes(1))) struct JournalWriterTests {
    /// An in-memory journal whose saves can be held on the writer's thread, counting each commit
    /// and the deliveries it wrote.
    final class HeldJournal: BeaconJournal, Sendable {
        let stored = InMemoryJournal()
        private let gate = DispatchSemaphore(value: 0)
        private let state = Mutex((holding: false, entered: 0, commits: [Int]()))

        func hold() { state.withLock { $0.holding = true } }

        func release() {
            let held = state.withLock { state in
                defer { state.holding = false }
                return state.holding
            }
            if held { gate.signal() }
        }

        /// Commits begun, and the number of deliveries of each one ended.
        var entered: Int { state.withLock { $0.entered } }
        var commits: [Int] { state.withLock { $0.commits } }

        func save(_ deliveries: [BeaconDelivery], session: SessionSnapshot?, audit: AuditChanges) throws(JournalError) {
            let holding = state.withLock { state in
                state.entered += 1
                return state.holding
            }
            if holding { gate.wait() }
            try stored.save(deliveries, session: session, audit: audit)
            state.withLock { $0.commits.append(deliveries.count) }
        }

        func unfinishedDeliveries() throws(JournalError) -> [BeaconDelivery] { try stored.unfinishedDeliveries() }
        func deliveries(ofSession sessionID: String) throws(JournalError) -> [BeaconDelivery] { try stored.deliveries(ofSession: sessionID) }
        func session(sessionID: String?, mediaURL: String, savedSince: Milliseconds) throws(JournalError) -> SessionSnapshot? {
            try stored.session(sessionID: sessionID, mediaURL: mediaURL, savedSince: savedSince)
        }
        func prune(before cutoff: Milliseconds) throws(JournalError) { try stored.prune(before: cutoff) }
    }

    static func writer(_ journal: HeldJournal) async throws -> JournalWriter {
        let writer = JournalWriter(
            opener: { journal }, now: { 1_000 }, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, failed: {})
        try await writer.open().get()
        return writer
    }

    static func delivery(_ number: Int, state: BeaconDelivery.State = .due) -> BeaconDelivery {
        let key = BeaconDelivery.Key(
            sessionKey: "s1", adBreakID: "p", adID: "a\(number)", event: .impression, eventStart: 0, url: "http://127.0.0.1:9/b?n=\(number)",
            occurrence: 0)
        return BeaconDelivery(key: key, reference: EventReference(adBreakID: "p", adIndex: number, eventIndex: 0), state: state, dueAt: 0)
    }

    @Test func deliveriesDueTogetherAreOneTransaction() async throws {
        let journal = HeldJournal()
        let writer = try await Self.writer(journal)
        var coordinator = DeliveryCoordinator(queue: DeliveryQueue(perHostLimit: 100, totalLimit: 100), retryPolicy: RetryPolicy())
        var random = SeededGenerator(seed: 7)
        let firings = (0..<50).map { index in
            Firing(
                reference: EventReference(adBreakID: "p", adIndex: index, eventIndex: 0), adBreakID: "p", adID: "a\(index)", event: .impression,
                eventStart: 0, signalingURLs: ["http://127.0.0.1:9/b?n=\(index)"])
        }
        let effects = coordinator.fire(
            firings, sessionKey: "s1", macros: MacroSettings(deviceUserAgent: "test"), context: { _ in MacroContext(occurredAt: 0) }, now: 1_000,
            wallNow: 0, using: &random)
        #expect(effects.start.count == 50)
        await writer.save(effects.persist)
        #expect(journal.commits == [50])
        #expect(journal.stored.allDeliveries.allSatisfy { $0.state == .inFlight })
    }

    @Test func whatIsSubmittedDuringACommitGoesIntoTheNextOne() async throws {
        let journal = HeldJournal()
        let writer = try await Self.writer(journal)
        journal.hold()
        let acknowledged = Recorder<Int>()
        writer.submit([Self.delivery(0)]) { _ in acknowledged.append(0) }
        try await eventually("the first commit to begin") { journal.entered == 1 }
        for number in 1...20 {
            writer.submit([Self.delivery(number)]) { _ in acknowledged.append(number) }
        }
        // A later save of the same delivery replaces the earlier one in the commit.
        writer.submit([Self.delivery(20, state: .inFlight)]) { _ in acknowledged.append(21) }
        #expect(acknowledged.all.isEmpty, "nothing is acknowledged before it is written")
        journal.release()
        await writer.flush()
        #expect(journal.commits == [1, 20], "the 21 saves submitted during the first commit are one transaction")
        #expect(acknowledged.all == Array(0...21))
        #expect(journal.stored.delivery(Self.delivery(20).key)?.state == .inFlight)
    }

    @Test func noRequestLeavesBeforeTheWriteOfItsDeliveryInFlightIsAcknowledged() async throws {
        let journal = HeldJournal()
        let writer = try await Self.writer(journal)
        let url = "http://127.0.0.1:9/b?n=1"
        let client = ScriptedHTTPClient([url: [.status(204)]])
        let pump = DeliveryPump(sender: BeaconSender(client: client, quiet: false))
        await withDiscardingTaskGroup { group in
            group.addTask { await pump.run() }
            journal.hold()
            let inFlight = Self.delivery(1, state: .inFlight)
            writer.submit([inFlight]) { _ in pump.start([inFlight]) }
            try? await eventually("the commit to begin") { journal.entered == 1 }
            try? await Task.sleep(for: .milliseconds(200))
            #expect(client.requests.all.isEmpty, "a request left before its delivery was on disk")
            journal.release()
            let results = await pump.results.next()
            #expect(results.map(\.key) == [inFlight.key])
            #expect(journal.stored.delivery(inFlight.key)?.state == .inFlight)
            #expect(client.requests.all == [url])
            pump.finish()
        }
    }

    @Test func aFailedCommitIsAcknowledgedAsSuchAndClosesTheJournalUntilItsReopenTime() async throws {
        let journal = HeldJournal()
        let failures = Mutex(0)
        let writer = JournalWriter(
            opener: { journal }, now: { 1_000 }, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            failed: { failures.withLock { $0 += 1 } })
        try await writer.open().get()
        journal.stored.fail([.save])
        let result = await writer.save([Self.delivery(1)])
        #expect(result.map { (try? $0.get()) == nil } == true)
        #expect(failures.withLock { $0 } == 1)
        let health = writer.status
        #expect(health.problem?.contains("disk full") == true && health.errors == 1)
        #expect(health.nextOpenTime == 1_000 + JournalAccess.reopenInterval)
        // Closed: what is submitted meanwhile is acknowledged without a write.
        #expect(await writer.save([Self.delivery(2)]) == nil)
        #expect(await writer.reopenIfDue(now: 1_000) == false)
        journal.stored.fail([])
        #expect(await writer.reopenIfDue(now: 1_000 + JournalAccess.reopenInterval))
        #expect(writer.status.problem == nil)
    }
}
