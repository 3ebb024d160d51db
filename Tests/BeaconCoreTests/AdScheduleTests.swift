import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite struct AdScheduleTests {
    let t0 = Fixture.t0

    @Test func addsNewPodsOrderedByStartAndReportsAddedEvents() throws {
        var schedule = AdSchedule()
        let later = Fixture.pod(id: "later", start: t0 + 600_000, userEvents: false)
        let earlier = Fixture.pod(id: "earlier", start: t0, userEvents: false)
        let changes = schedule.merge([later, earlier])
        #expect(schedule.pods.map(\.id) == ["earlier", "later"])
        #expect(changes.added.count == 12)
        #expect(changes.resized.isEmpty)
        for reference in changes.added {
            let event = try #require(schedule[reference])
            let ad = try #require(schedule.ad(containing: reference))
            #expect(ad.trackingEvents[reference.eventIndex] == event)
        }
        #expect(Set(changes.added.map(\.podID)) == ["earlier", "later"])
        #expect(schedule.pod(id: "later")?.startTime == t0 + 600_000)
        #expect(schedule.pod(id: "missing") == nil)
    }

    @Test func mergingTheSameDocumentAgainChangesNothing() {
        var schedule = AdSchedule()
        let pods = [Fixture.pod(id: "p", start: t0)]
        _ = schedule.merge(pods)
        let before = schedule
        let changes = schedule.merge(pods)
        #expect(changes == AdSchedule.MergeChanges())
        #expect(schedule == before)
    }

    @Test func addsNewAdsToAKnownPodAndUpdatesDurations() throws {
        var schedule = AdSchedule()
        let first = Fixture.ad(id: "a1", start: t0, userEvents: false)
        _ = schedule.merge([Fixture.pod(id: "p", ads: [first])])
        let second = Fixture.ad(id: "a2", start: t0 + 30_000, userEvents: false)
        var shortened = first
        shortened.duration = 20_000
        let changes = schedule.merge([Pod(id: "p", startTime: t0, duration: 50_000, ads: [shortened, second])])
        let pod = try #require(schedule.pod(id: "p"))
        #expect(pod.duration == 50_000)
        #expect(pod.ads.map(\.id) == ["a1", "a2"])
        #expect(pod.ads[0].duration == 20_000)
        #expect(pod.ads[0].trackingEvents.count == 6)
        #expect(changes.added.count == 6)
        #expect(changes.added.allSatisfy { $0.adIndex == 1 })
    }

    @Test func keysEventsByTypeAndStart() throws {
        var schedule = AdSchedule()
        let urls = ["http://127.0.0.1:4647/a"]
        let base = TrackingEvent(event: .start, startTime: t0, duration: 0, signalingUrls: urls)
        _ = schedule.merge([Pod(id: "p", startTime: t0, duration: 1000, ads: [Ad(id: "a", startTime: t0, duration: 1000, trackingEvents: [base])])])

        var resized = base
        resized.duration = 400
        var moved = base
        moved.startTime += 1
        resized.signalingUrls = ["http://127.0.0.1:4647/b"]
        var otherType = base
        otherType.event = .impression
        let incoming = Ad(id: "a", startTime: t0, duration: 1000, trackingEvents: [resized, moved, otherType])
        let changes = schedule.merge([Pod(id: "p", startTime: t0, duration: 1000, ads: [incoming])])

        let events = try #require(schedule.pod(id: "p")?.ads.first?.trackingEvents)
        #expect(events.count == 3)
        #expect(events[0].duration == 400)
        #expect(events[0].signalingUrls == ["http://127.0.0.1:4647/b"])
        #expect(changes.resized == [EventReference(podID: "p", adIndex: 0, eventIndex: 0)])
        #expect(changes.added.map(\.eventIndex) == [1, 2])
    }

    @Test func keepsReportingStatesAcrossRefreshes() throws {
        var schedule = AdSchedule()
        let pod = Fixture.pod(id: "p", start: t0, userEvents: false)
        _ = schedule.merge([pod])
        let done = EventReference(podID: "p", adIndex: 0, eventIndex: 0)
        let failed = EventReference(podID: "p", adIndex: 0, eventIndex: 1)
        schedule.setReportingState(.done, of: done)
        schedule.setReportingState(.failed, of: failed)

        var refreshed = pod
        refreshed.ads[0].duration += 1000
        refreshed.ads[0].trackingEvents[0].duration += 1000
        // A refresh carrying a state must not overwrite what was done.
        refreshed.ads[0].trackingEvents[1].reportingState = .idle
        refreshed.ads[0].trackingEvents[2].reportingState = .done
        _ = schedule.merge([refreshed])

        #expect(schedule[done]?.reportingState == .done)
        #expect(schedule[failed]?.reportingState == .failed)
        #expect(schedule[EventReference(podID: "p", adIndex: 0, eventIndex: 2)]?.reportingState == .idle)
        #expect(schedule[done]?.duration == Fixture.adDuration + 1000)
    }

    @Test func neverDropsAdsOrEventsMissingFromARefresh() throws {
        var schedule = AdSchedule()
        let pod = Fixture.pod(id: "p", start: t0, userEvents: false)
        _ = schedule.merge([pod])
        var partial = pod
        partial.ads[0].trackingEvents = [pod.ads[0].trackingEvents[0]]
        _ = schedule.merge([partial])
        #expect(schedule.pod(id: "p")?.ads.first?.trackingEvents.count == 6)
        _ = schedule.merge([Pod(id: "p", startTime: t0, duration: 30_000, ads: [])])
        #expect(schedule.pod(id: "p")?.ads.count == 1)
    }

    @Test func reordersWhenAPodMoves() {
        var schedule = AdSchedule()
        _ = schedule.merge([Fixture.pod(id: "a", start: t0), Fixture.pod(id: "b", start: t0 + 100_000)])
        var moved = Fixture.pod(id: "a", start: t0)
        moved.startTime = t0 + 200_000
        _ = schedule.merge([moved])
        #expect(schedule.pods.map(\.id) == ["b", "a"])
        #expect(schedule.pod(id: "a")?.startTime == t0 + 200_000)
    }

    @Test func prunesOnlyEndedPodsAbsentFromTheMetadata() {
        var schedule = AdSchedule()
        let old = Fixture.pod(id: "old", start: t0)
        let kept = Fixture.pod(id: "kept", start: t0 + 1000)
        let future = Fixture.pod(id: "future", start: t0 + 3_600_000)
        _ = schedule.merge([old, kept, future])
        let cutoff = t0 + 600_000
        let removed = schedule.prune(endedBefore: cutoff, keeping: ["kept"])
        #expect(removed == ["old"])
        #expect(schedule.pods.map(\.id) == ["kept", "future"])
        #expect(schedule.pod(id: "old") == nil)
        #expect(schedule.pod(id: "future") != nil)
    }

    @Test func prunesByTheEndOfTheLongestEvent() {
        var schedule = AdSchedule()
        // The captured sample's shape: a short ad whose events run 30 s.
        var ad = Fixture.ad(id: "a", start: t0, duration: 30_000, userEvents: false)
        ad.duration = 468
        let pod = Pod(id: "p", startTime: t0, duration: 468, ads: [ad])
        _ = schedule.merge([pod])
        #expect(pod.endTime == t0 + 30_000 + TrackingEvent.minimumWindow)
        #expect(schedule.prune(endedBefore: pod.endTime, keeping: []).isEmpty)
        #expect(schedule.prune(endedBefore: pod.endTime + 1, keeping: []) == ["p"])
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
        let pod = Fixture.pod(
            id: "p", ads: [Fixture.ad(id: "a1", start: t0, duration: 30_000), Fixture.ad(id: "a2", start: t0 + 30_000, duration: 30_000)])
        _ = schedule.merge([pod, Fixture.pod(id: "b1", start: t0 + 300_000)])
        let found = schedule.ads(at: t0 + offset).map { $0.pod.ads[$0.adIndex].id }
        #expect(found == expected)
    }

    @Test func findsTheNextPod() {
        var schedule = AdSchedule()
        _ = schedule.merge([Fixture.pod(id: "b", start: t0 + 100_000), Fixture.pod(id: "a", start: t0)])
        #expect(schedule.nextPod(after: t0 - 1)?.id == "a")
        #expect(schedule.nextPod(after: t0)?.id == "b")
        #expect(schedule.nextPod(after: t0 + 99_999)?.id == "b")
        #expect(schedule.nextPod(after: t0 + 100_000) == nil)
    }

    @Test func setReportingStateIgnoresUnknownReferences() {
        var schedule = AdSchedule()
        _ = schedule.merge([Fixture.pod(id: "p", start: t0)])
        let before = schedule
        schedule.setReportingState(.done, of: EventReference(podID: "nope", adIndex: 0, eventIndex: 0))
        schedule.setReportingState(.done, of: EventReference(podID: "p", adIndex: 5, eventIndex: 0))
        schedule.setReportingState(.done, of: EventReference(podID: "p", adIndex: 0, eventIndex: 99))
        #expect(schedule == before)
        #expect(schedule[EventReference(podID: "p", adIndex: 0, eventIndex: 99)] == nil)
    }

    /// Found by fuzzing: an event repeated in one document with another duration was reported
    /// both added and resized.
    @Test func anEventRepeatedWithAnotherDurationIsOnlyAdded() throws {
        var schedule = AdSchedule()
        let quartile = TrackingEvent(event: .firstQuartile, startTime: t0 + 7_500, duration: 1, signalingUrls: [Fixture.url(ad: "a", .firstQuartile)])
        var repeated = quartile
        repeated.duration = 0
        let ad = Ad(id: "a", startTime: t0, duration: 30_000, trackingEvents: [quartile, repeated])
        let changes = schedule.merge([Fixture.pod(id: "p", ads: [ad])])
        #expect(changes.added.count == 1)
        #expect(changes.resized.isEmpty)
        #expect(schedule[try #require(changes.added.first)]?.duration == 0)
    }
}

extension AdSchedule {
    /// Merges `pods` as a document whose data range holds none of them: nothing is withdrawn.
    mutating func merge(_ pods: [Pod]) -> MergeChanges {
        merge(pods, within: DataRange(start: 0, end: 0))
    }
}
