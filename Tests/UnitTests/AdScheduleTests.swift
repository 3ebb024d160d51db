import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct AdScheduleTests {
    let t0 = Fixture.t0

    @Test func addsNewAdBreaksOrderedByStartAndReportsAddedEvents() throws {
        var schedule = AdSchedule()
        let later = Fixture.adBreak(id: "later", start: t0 + 600_000, userEvents: false)
        let earlier = Fixture.adBreak(id: "earlier", start: t0, userEvents: false)
        let changes = schedule.merge([later, earlier])
        #expect(schedule.adBreaks.map(\.id) == ["earlier", "later"])
        #expect(changes.added.count == 12)
        #expect(changes.resized.isEmpty)
        for reference in changes.added {
            let event = try #require(schedule[reference])
            let ad = try #require(schedule.ad(containing: reference))
            #expect(ad.trackingEvents[reference.eventIndex] == event)
        }
        #expect(Set(changes.added.map(\.adBreakID)) == ["earlier", "later"])
        #expect(schedule.adBreak(id: "later")?.startTime == t0 + 600_000)
        #expect(schedule.adBreak(id: "missing") == nil)
    }

    @Test func mergingTheSameDocumentAgainChangesNothing() {
        var schedule = AdSchedule()
        let adBreaks = [Fixture.adBreak(id: "p", start: t0)]
        _ = schedule.merge(adBreaks)
        let before = schedule
        let changes = schedule.merge(adBreaks)
        #expect(changes == AdSchedule.MergeChanges())
        #expect(schedule == before)
    }

    @Test func addsNewAdsToAKnownAdBreakAndUpdatesDurations() throws {
        var schedule = AdSchedule()
        let first = Fixture.ad(id: "a1", start: t0, userEvents: false)
        _ = schedule.merge([Fixture.adBreak(id: "p", ads: [first])])
        let second = Fixture.ad(id: "a2", start: t0 + 30_000, userEvents: false)
        var shortened = first
        shortened.duration = 20_000
        let changes = schedule.merge([AdBreak(id: "p", startTime: t0, duration: 50_000, ads: [shortened, second])])
        let adBreak = try #require(schedule.adBreak(id: "p"))
        #expect(adBreak.duration == 50_000)
        #expect(adBreak.ads.map(\.id) == ["a1", "a2"])
        #expect(adBreak.ads[0].duration == 20_000)
        #expect(adBreak.ads[0].trackingEvents.count == 6)
        #expect(changes.added.count == 6)
        #expect(changes.added.allSatisfy { $0.adIndex == 1 })
    }

    @Test func keysEventsByTypeAndStart() throws {
        var schedule = AdSchedule()
        let urls = ["http://127.0.0.1:4647/a"]
        let base = TrackingEvent(event: .start, startTime: t0, duration: 0, signalingURLs: urls)
        _ = schedule.merge([AdBreak(id: "p", startTime: t0, duration: 1000, ads: [Ad(id: "a", startTime: t0, duration: 1000, trackingEvents: [base])])])

        var resized = base
        resized.duration = 400
        var moved = base
        moved.startTime += 1
        resized.signalingURLs = ["http://127.0.0.1:4647/b"]
        var otherType = base
        otherType.event = .impression
        let incoming = Ad(id: "a", startTime: t0, duration: 1000, trackingEvents: [resized, moved, otherType])
        let changes = schedule.merge([AdBreak(id: "p", startTime: t0, duration: 1000, ads: [incoming])])

        let events = try #require(schedule.adBreak(id: "p")?.ads.first?.trackingEvents)
        #expect(events.count == 3)
        #expect(events[0].duration == 400)
        #expect(events[0].signalingURLs == ["http://127.0.0.1:4647/b"])
        #expect(changes.resized == [EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0)])
        #expect(changes.added.map(\.eventIndex) == [1, 2])
    }

    @Test func keepsReportingStatesAcrossRefreshes() throws {
        var schedule = AdSchedule()
        let adBreak = Fixture.adBreak(id: "p", start: t0, userEvents: false)
        _ = schedule.merge([adBreak])
        let done = EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0)
        let failed = EventReference(adBreakID: "p", adIndex: 0, eventIndex: 1)
        schedule.setReportingState(.done, of: done)
        schedule.setReportingState(.failed, of: failed)

        var refreshed = adBreak
        refreshed.ads[0].duration += 1000
        refreshed.ads[0].trackingEvents[0].duration += 1000
        // A refresh carrying a state must not overwrite what was done.
        refreshed.ads[0].trackingEvents[1].reportingState = .idle
        refreshed.ads[0].trackingEvents[2].reportingState = .done
        _ = schedule.merge([refreshed])

        #expect(schedule[done]?.reportingState == .done)
        #expect(schedule[failed]?.reportingState == .failed)
        #expect(schedule[EventReference(adBreakID: "p", adIndex: 0, eventIndex: 2)]?.reportingState == .idle)
        #expect(schedule[done]?.duration == Fixture.adDuration + 1000)
    }

    @Test func neverDropsAdsOrEventsMissingFromARefresh() throws {
        var schedule = AdSchedule()
        let adBreak = Fixture.adBreak(id: "p", start: t0, userEvents: false)
        _ = schedule.merge([adBreak])
        var partial = adBreak
        partial.ads[0].trackingEvents = [adBreak.ads[0].trackingEvents[0]]
        _ = schedule.merge([partial])
        #expect(schedule.adBreak(id: "p")?.ads.first?.trackingEvents.count == 6)
        _ = schedule.merge([AdBreak(id: "p", startTime: t0, duration: 30_000, ads: [])])
        #expect(schedule.adBreak(id: "p")?.ads.count == 1)
    }

    @Test func reordersWhenAPodMoves() {
        var schedule = AdSchedule()
        _ = schedule.merge([Fixture.adBreak(id: "a", start: t0), Fixture.adBreak(id: "b", start: t0 + 100_000)])
        var moved = Fixture.adBreak(id: "a", start: t0)
        moved.startTime = t0 + 200_000
        _ = schedule.merge([moved])
        #expect(schedule.adBreaks.map(\.id) == ["b", "a"])
        #expect(schedule.adBreak(id: "a")?.startTime == t0 + 200_000)
    }

    @Test func prunesOnlyEndedAdBreaksAbsentFromTheMetadata() {
        var schedule = AdSchedule()
        let old = Fixture.adBreak(id: "old", start: t0)
        let kept = Fixture.adBreak(id: "kept", start: t0 + 1000)
        let future = Fixture.adBreak(id: "future", start: t0 + 3_600_000)
        _ = schedule.merge([old, kept, future])
        let cutoff = t0 + 600_000
        let removed = schedule.prune(endedBefore: cutoff, keeping: ["kept"])
        #expect(removed == ["old"])
        #expect(schedule.adBreaks.map(\.id) == ["kept", "future"])
        #expect(schedule.adBreak(id: "old") == nil)
        #expect(schedule.adBreak(id: "future") != nil)
    }

    @Test func prunesByTheEndOfTheLongestEvent() {
        var schedule = AdSchedule()
        // The captured sample's shape: a short ad whose events run 30 s.
        var ad = Fixture.ad(id: "a", start: t0, duration: 30_000, userEvents: false)
        ad.duration = 468
        let adBreak = AdBreak(id: "p", startTime: t0, duration: 468, ads: [ad])
        _ = schedule.merge([adBreak])
        #expect(adBreak.endTime == t0 + 30_000 + TrackingEvent.minimumWindow)
        #expect(schedule.prune(endedBefore: adBreak.endTime, keeping: []).isEmpty)
        #expect(schedule.prune(endedBefore: adBreak.endTime + 1, keeping: []) == ["p"])
    }

    @Test(arguments: [
        (-1, []),
        (0, ["a1"]),
        (29_999, ["a1"]),
        (30_000, ["a1", "a2"]),
        (30_500, ["a1", "a2"]),
        (30_501, ["a2"]),
        (60_500, ["a2"]),
        (60_501, []),
        (300_000, ["b1"]),
    ] as [(Milliseconds, [String])])
    func findsTheAdsAtAPlayhead(offset: Milliseconds, expected: [String]) {
        var schedule = AdSchedule()
        let adBreak = Fixture.adBreak(
            id: "p", ads: [Fixture.ad(id: "a1", start: t0, duration: 30_000), Fixture.ad(id: "a2", start: t0 + 30_000, duration: 30_000)])
        _ = schedule.merge([adBreak, Fixture.adBreak(id: "b1", start: t0 + 300_000)])
        let found = schedule.ads(at: t0 + offset).map { $0.adBreak.ads[$0.adIndex].id }
        #expect(found == expected)
    }

    @Test func findsTheNextAdBreak() {
        var schedule = AdSchedule()
        _ = schedule.merge([Fixture.adBreak(id: "b", start: t0 + 100_000), Fixture.adBreak(id: "a", start: t0)])
        #expect(schedule.nextAdBreak(after: t0 - 1)?.id == "a")
        #expect(schedule.nextAdBreak(after: t0)?.id == "b")
        #expect(schedule.nextAdBreak(after: t0 + 99_999)?.id == "b")
        #expect(schedule.nextAdBreak(after: t0 + 100_000) == nil)
    }

    @Test func setReportingStateIgnoresUnknownReferences() {
        var schedule = AdSchedule()
        _ = schedule.merge([Fixture.adBreak(id: "p", start: t0)])
        let before = schedule
        schedule.setReportingState(.done, of: EventReference(adBreakID: "nope", adIndex: 0, eventIndex: 0))
        schedule.setReportingState(.done, of: EventReference(adBreakID: "p", adIndex: 5, eventIndex: 0))
        schedule.setReportingState(.done, of: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 99))
        #expect(schedule == before)
        #expect(schedule[EventReference(adBreakID: "p", adIndex: 0, eventIndex: 99)] == nil)
    }

    /// Found by fuzzing: an event repeated in one document with another duration was reported
    /// both added and resized.
    @Test func anEventRepeatedWithAnotherDurationIsOnlyAdded() throws {
        var schedule = AdSchedule()
        let quartile = TrackingEvent(event: .firstQuartile, startTime: t0 + 7_500, duration: 1, signalingURLs: [Fixture.url(ad: "a", .firstQuartile)])
        var repeated = quartile
        repeated.duration = 0
        let ad = Ad(id: "a", startTime: t0, duration: 30_000, trackingEvents: [quartile, repeated])
        let changes = schedule.merge([Fixture.adBreak(id: "p", ads: [ad])])
        #expect(changes.added.count == 1)
        #expect(changes.resized.isEmpty)
        #expect(schedule[try #require(changes.added.first)]?.duration == 0)
    }
}

extension AdSchedule {
    /// Merges `adBreaks` as a document whose data range holds none of them: nothing is withdrawn.
    mutating func merge(_ adBreaks: [AdBreak]) -> MergeChanges {
        merge(adBreaks, within: DataRange(start: 0, end: 0))
    }
}
