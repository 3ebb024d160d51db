import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// A tracking event is its ad break, ad, type and start time: repeated entries are one event, a
/// refresh replaces the URLs of an event not fired, and never those of one that fired.
@Suite(.timeLimit(.minutes(2))) struct EventIdentityTests {
    let t0 = Fixture.t0
    let first = EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0)

    func url(_ name: String) -> String { "http://127.0.0.1:4647/\(name)" }

    /// An ad break "p" with ad "a" holding `events`, each a start event at `t0` with these URLs.
    func adBreak(_ events: [[String]], duration: Milliseconds = 0) -> AdBreak {
        let entries = events.map { TrackingEvent(event: .start, startTime: t0, duration: duration, signalingURLs: $0.map(url)) }
        return AdBreak(id: "p", startTime: t0, duration: 30_000, ads: [Ad(id: "a", startTime: t0, duration: 30_000, trackingEvents: entries)])
    }

    /// (the entries of one document, the URLs of the one event they make)
    @Test(arguments: [
        ([["a"], ["b"]], ["a", "b"]),
        ([["a", "b"], ["b", "c", "c"]], ["a", "b", "c"]),
        ([["a", "a"]], ["a"]),
        ([["b"], [], ["a", "b"]], ["b", "a"]),
        ([[], []], []),
    ])
    func entriesOfOneDocumentAreOneEventWithTheUnionOfTheirURLs(entries: [[String]], urls: [String]) throws {
        var schedule = AdSchedule()
        let changes = schedule.merge([adBreak(entries)])
        #expect(changes.added == [first])
        #expect(schedule.adBreak(id: "p")?.ads.first?.trackingEvents.count == 1)
        #expect(schedule[first]?.signalingURLs == urls.map(url))
        // The same document again changes nothing.
        let before = schedule
        #expect(schedule.merge([adBreak(entries)]) == AdSchedule.MergeChanges())
        #expect(schedule == before)
    }

    @Test func aRefreshReplacesTheURLsOfAnEventNotFired() {
        var schedule = AdSchedule()
        _ = schedule.merge([adBreak([["a", "b"]])])
        let changes = schedule.merge([adBreak([["a2"], ["b2"]])])
        #expect(changes == AdSchedule.MergeChanges())
        #expect(schedule[first]?.signalingURLs == [url("a2"), url("b2")])
        #expect(schedule[first]?.currentSignalingURLs == nil)
    }

    /// (the fired event's reporting state)
    @Test(arguments: [ReportingState.connecting, .done, .failed])
    func aRefreshNeverChangesTheURLsOfAFiredEventAndShowsTheNewOnes(state: ReportingState) {
        var schedule = AdSchedule()
        _ = schedule.merge([adBreak([["a"]])])
        schedule.setReportingState(state, of: first)
        _ = schedule.merge([adBreak([["a2"]])])
        #expect(schedule[first]?.signalingURLs == [url("a")])
        #expect(schedule[first]?.currentSignalingURLs == [url("a2")])
        #expect(schedule[first]?.reportingState == state)
        // Repeated within one document, the URLs shown are their union.
        _ = schedule.merge([adBreak([["a2"], ["b2", "a2"]])])
        #expect(schedule[first]?.currentSignalingURLs == [url("a2"), url("b2")])
        // Back to what was sent: nothing more to show.
        _ = schedule.merge([adBreak([["a"]])])
        #expect(schedule[first]?.signalingURLs == [url("a")])
        #expect(schedule[first]?.currentSignalingURLs == nil)
    }

    @Test func reSignedURLsFireOnceWithTheURLsKnownWhenTheEventFires() {
        var player = ScriptedPlayer(Fixture.document([adBreak([["a"]], duration: 1000)]), at: t0 - 2000)
        player.tick(t0 - 2000)
        player.play(to: t0 - 250)
        // Re-signed before playback reaches it: the new URL is the one sent.
        #expect(player.apply(Fixture.document([adBreak([["a2"]], duration: 1000)])).isEmpty)
        player.play(to: t0 + 2000)
        #expect(player.fired.map(\.signalingURLs) == [[url("a2")]])
        // Re-signed after it fired: nothing more is sent, whether played again or not.
        #expect(player.apply(Fixture.document([adBreak([["a3"]], duration: 1000)])).isEmpty)
        player.jump(to: t0 - 1000)
        player.play(to: t0 + 2000)
        #expect(player.fired.count == 1)
        #expect(player.session.schedule[first]?.currentSignalingURLs == [url("a3")])
    }

    @Test func aRestoredScheduleKeepsEveryReferenceEvenWhereAnEarlierReleaseKeptTwinEvents() throws {
        // Before events were keyed without their URLs, a re-signed event was kept twice.
        let twins = adBreak([["a"], ["a2"]])
        let schedule = AdSchedule(restoring: [twins])
        #expect(schedule.references == [first, EventReference(adBreakID: "p", adIndex: 0, eventIndex: 1)])
        #expect(schedule.adBreaks == [twins])
    }
}
