import Testing
@testable import BeaconDomain

/// What a finished metadata refresh does to the session, at given instants: the document applied
/// or kept, the dialect decided, the next refresh due, what is reported.
@Suite(.timeLimit(.minutes(2))) struct ActiveSessionRefreshTests {
    typealias Fixtures = MetadataRefreshTests
    static let interval: Milliseconds = 2_000

    static func session(dialect: Dialect? = nil) -> ActiveSession {
        var session = ActiveSession(
            endpoints: SessionEndpoints(
                mediaURL: "http://origin.example/master.m3u8", manifestURL: "http://origin.example/master.m3u8",
                trackingURL: Fixtures.trackingURL, sessionID: "s1", dialect: dialect),
            tracking: TrackingSession(retention: 3_600_000), generation: 1, metadata: MetadataRefresh(interval: interval))
        session.snapshotDirty = false
        return session
    }

    /// One refresh of `session` answered by `answer`, taken at `now`.
    static func refresh(
        _ session: inout ActiveSession, _ answer: Result<HTTPClientResponse, HTTPClientError>, now: Milliseconds = Fixtures.now
    ) -> ActiveSession.Refreshed? {
        var round = session.metadata.begin(trackingURL: session.endpoints.trackingURL, dialect: session.endpoints.dialect)
        guard case .finished(let outcome) = round.received(answer, wallNow: Fixtures.wallNow) else { return nil }
        var random = RetryScheduleTests.Highest()
        return session.refreshed(by: round, outcome, now: now, wallNow: Fixtures.wallNow, using: &random)
    }

    @Test func aNewDocumentIsAppliedOnceItsAdBreaksDiscoveredAndTheDialectDecided() throws {
        var session = Self.session()
        let first = try #require(Self.refresh(&session, Fixtures.answer(Fixtures.harmonic)))
        #expect(first.dialectDecided == .harmonic)
        #expect(session.endpoints.dialect == .harmonic)
        guard case .applied(let document, let bytes, let discovered, _) = first.result else {
            Issue.record("a new document is applied, not \(first.result)")
            return
        }
        #expect(document.adBreaks.map(\.id) == ["p"])
        #expect(bytes == Fixtures.harmonic.count)
        #expect(discovered == ["p"])
        #expect(first.nextRefreshAt == Fixtures.now + Self.interval)
        #expect(session.snapshotDirty)
        #expect(session.tracking.schedule.adBreaks.map(\.id) == ["p"])

        let again = try #require(Self.refresh(&session, Fixtures.answer(Fixtures.harmonic), now: Fixtures.now + Self.interval))
        #expect(again.dialectDecided == nil)
        guard case .unchanged(let unchangedBytes) = again.result else {
            Issue.record("the same body again is unchanged, not \(again.result)")
            return
        }
        #expect(unchangedBytes == Fixtures.harmonic.count)
        #expect(again.nextRefreshAt == Fixtures.now + 2 * Self.interval)
    }

    @Test func aFailureKeepsTheSessionCountsInARowAndWaitsAsTheServerAsked() throws {
        var session = Self.session(dialect: .harmonic)
        let failed = try #require(Self.refresh(&session, Fixtures.answer([], status: 503, retryAfter: "30")))
        guard case .failed(_, let failures) = failed.result else {
            Issue.record("a 503 fails the refresh, not \(failed.result)")
            return
        }
        #expect(failures == 1)
        #expect(failed.nextRefreshAt == Fixtures.now + 30_000)
        #expect(!session.snapshotDirty)
        #expect(session.tracking.schedule.adBreaks.isEmpty)
        let again = try #require(Self.refresh(&session, Fixtures.answer([], status: 500), now: Fixtures.now + 30_000))
        guard case .failed(_, let inARow) = again.result else {
            Issue.record("a 500 fails the refresh, not \(again.result)")
            return
        }
        #expect(inARow == 2)
    }

    @Test func aCancelledRefreshChangesNothing() {
        var session = Self.session()
        var round = session.metadata.begin(trackingURL: session.endpoints.trackingURL, dialect: nil)
        _ = round.received(Fixtures.answer(Fixtures.harmonic), wallNow: Fixtures.wallNow)
        var random = RetryScheduleTests.Highest()
        #expect(session.refreshed(by: round, .cancelled, now: Fixtures.now, wallNow: Fixtures.wallNow, using: &random) == nil)
        #expect(session.endpoints.dialect == nil)
        #expect(session.metadata.lastBody == nil)
    }
}
