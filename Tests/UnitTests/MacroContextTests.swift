import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// Where a fired event's macro values come from: its ad, its ad break, the session's timeline.
@Suite(.timeLimit(.minutes(2))) struct MacroContextTests {
    let t0 = Fixture.t0

    func context(
        _ type: TrackingEventType, ad adIndex: Int = 0, in adBreak: AdBreak, timeline: Timeline = .programDateTime, rangeEnd: Milliseconds? = nil,
        playhead: Milliseconds? = nil
    ) throws -> MacroContext {
        // Restored as it is, withdrawn ads included.
        let schedule = AdSchedule(restoring: [adBreak])
        let document = Fixture.document([adBreak], rangeEnd: rangeEnd)
        let ad = adBreak.ads[adIndex]
        let eventIndex = try #require(ad.trackingEvents.firstIndex { $0.event == type })
        let event = ad.trackingEvents[eventIndex]
        let firing = Firing(
            reference: EventReference(adBreakID: adBreak.id, adIndex: adIndex, eventIndex: eventIndex), adBreakID: adBreak.id, adID: ad.id,
            event: type, eventStart: event.startTime, signalingURLs: event.signalingURLs)
        return MacroContext(
            firing, in: schedule, timeline: timeline, dataRange: document.dataRange, playhead: playhead, occurredAt: 42,
            contentPosition: nil)
    }

    var twoAds: AdBreak {
        Fixture.adBreak(id: "p", ads: [Fixture.ad(id: "a1", start: t0), Fixture.ad(id: "a2", start: t0 + Fixture.adDuration)])
    }

    @Test func aTimeBasedEventOccursAtItsOwnTimeInItsAd() throws {
        let quartile = try context(.firstQuartile, ad: 1, in: twoAds)
        #expect(quartile.adPlayhead == Fixture.adDuration / 4)
        #expect(quartile.occurredAt == 42)
        #expect(try context(.impression, ad: 1, in: twoAds).adPlayhead == 0)
        #expect(try context(.complete, ad: 1, in: twoAds).adPlayhead == Fixture.adDuration)
        #expect(quartile.reason == nil && quartile.errorCode == nil && quartile.contentPosition == nil)
    }

    @Test func anActionOccursWhereThePlayerIsWithinItsAd() throws {
        #expect(try context(.pause, ad: 1, in: twoAds, playhead: t0 + Fixture.adDuration + 2_250).adPlayhead == 2_250)
        // A playhead a little past the ad's end is the ad's end.
        #expect(try context(.mute, ad: 0, in: twoAds, playhead: t0 + Fixture.adDuration + 400).adPlayhead == Fixture.adDuration)
    }

    @Test func theAdCountsFromOneInStartOrderWithoutWithdrawnAds() throws {
        // Merging appends: an ad placed before the others may come last in the array.
        var adBreak = twoAds
        adBreak.ads.append(Fixture.ad(id: "a0", start: t0 - Fixture.adDuration))
        adBreak.startTime = t0 - Fixture.adDuration
        #expect(try context(.start, ad: 0, in: adBreak).adPosition == 2)
        #expect(try context(.start, ad: 1, in: adBreak).adPosition == 3)
        #expect(try context(.start, ad: 2, in: adBreak).adPosition == 1)
        for index in adBreak.ads[2].trackingEvents.indices { adBreak.ads[2].trackingEvents[index].heldBack = .withdrawn }
        #expect(try context(.start, ad: 1, in: adBreak).adPosition == 2)
    }

    @Test func verificationNotExecutedGivesReason2() throws {
        var ad = Fixture.ad(id: "a1", start: t0)
        ad.trackingEvents.append(
            TrackingEvent(event: .verificationNotExecuted, startTime: t0 + 9_000, duration: 0, signalingURLs: ["http://127.0.0.1:4647/v?r=[REASON]"]))
        let verification = try context(.verificationNotExecuted, in: Fixture.adBreak(id: "p", ads: [ad]))
        #expect(verification.reason == 2)
        #expect(verification.adPlayhead == 0, "sent with the impression, at the ad's start")
    }

    @Test func aLiveBreakIsAMidRollOnMediaTimeAPreRollAtZeroAMidRollBeforeTheRangeEndsElseUnknown() throws {
        #expect(try context(.start, in: twoAds).breakPosition == 2)
        let preRoll = Fixture.adBreak(id: "pre", start: 0)
        #expect(try context(.start, in: preRoll, timeline: .mediaTime, rangeEnd: 600_000).breakPosition == 1)
        let midRoll = Fixture.adBreak(id: "mid", start: 120_000)
        #expect(try context(.start, in: midRoll, timeline: .mediaTime, rangeEnd: 600_000).breakPosition == 2)
        #expect(try context(.start, in: midRoll, timeline: .mediaTime, rangeEnd: 150_000).breakPosition == nil)
    }
}
