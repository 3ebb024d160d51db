import Testing
@testable import BeaconDomain

/// The live event's timeline: its start and end from the playhead, the post-slate, the service's
/// events and blackouts; each given once per playback, nothing after a stop.
@Suite(.timeLimit(.minutes(2))) struct HeartbeatLiveEventTests {
    typealias Harness = HeartbeatHarness
    static let start: Milliseconds = 1_767_225_600_000
    static let end = start + 3_600_000

    static func event(_ type: HeartbeatOptions.LiveEventType, mode: HeartbeatOptions.OverflowMode? = nil) -> HeartbeatOptions {
        Harness.options {
            $0.liveStartTime = start
            $0.liveEndTime = end
            $0.liveEventType = type
            $0.overflowMode = mode
        }
    }

    @Test func aRegularEventStopsThePlaybackOnceThePlayheadPassesItsEnd() {
        var harness = Harness()
        _ = harness.load(Self.event(.regular))
        #expect(harness.notifications(harness.tick(Self.end - 1)).isEmpty)
        #expect(harness.notifications(harness.tick(Self.end)) == [.stopPlayback(.liveEventEnd)])
        #expect(harness.notifications(harness.tick(Self.end + 1_000)).isEmpty)
        // The player stops when it is ready to: the heartbeat reports until the playback ends.
        #expect(harness.tracker.nextWake != nil)
        #expect(harness.events(harness.handle(.sessionEnded(sessionID: "s1"))) == ["stop"])
    }

    @Test func theEndIsNotWatchedWithoutPlaybackStopOnPlaybackEnd() {
        var harness = Harness { $0.playbackStopOnPlaybackEnd = false }
        _ = harness.load(Self.event(.regular))
        #expect(harness.notifications(harness.tick(Self.end + 1_000)).isEmpty)
    }

    @Test func aMediaTimePlayheadIsNotCompared() {
        var harness = Harness()
        _ = harness.load(Self.event(.regular))
        #expect(harness.notifications(harness.tick(Self.end, timeline: .mediaTime)).isEmpty)
    }

    @Test func anOverflowEventPlaysItsPostSlateThenExits() {
        var harness = Harness { $0.postSlateDuration = .seconds(30) }
        _ = harness.load(Self.event(.overflow))
        let ended = harness.tick(Self.end)
        let endedAt = harness.now
        #expect(harness.notifications(ended) == [.liveEventEnd])
        #expect(harness.tracker.nextWake == endedAt + 30_000)
        #expect(harness.notifications(harness.advance(to: endedAt + 29_999)).isEmpty)
        #expect(harness.notifications(harness.advance(to: endedAt + 30_000)) == [.overflowEventEnd])
        #expect(harness.notifications(harness.tick(Self.end + 40_000)).isEmpty)
        #expect(harness.notifications(harness.advance(to: endedAt + 120_000)).isEmpty)
    }

    @Test func anOverflowEventWithoutPostSlateExitsAtItsEnd() {
        var harness = Harness()
        _ = harness.load(Self.event(.overflow))
        #expect(harness.notifications(harness.tick(Self.end)) == [.liveEventEnd, .overflowEventEnd])
    }

    @Test func overflowModeBeforeSwitchesToTheMainProgrammeAtItsStart() {
        var harness = Harness()
        _ = harness.load(Self.event(.overflow, mode: .before))
        #expect(harness.notifications(harness.tick(Self.start - 1)).isEmpty)
        #expect(harness.notifications(harness.tick(Self.start)) == [.liveProgramStart])
        #expect(harness.notifications(harness.tick(Self.start + 1_000)).isEmpty)
        var during = Harness()
        _ = during.load(Self.event(.overflow, mode: .during))
        #expect(during.notifications(during.tick(Self.start)).isEmpty)
    }

    @Test func theServicesEventsAreGivenOnceEach() {
        var harness = Harness { $0.postSlateDuration = .seconds(10) }
        _ = harness.load(Self.event(.overflow, mode: .before))
        let first = harness.tick(Self.start - 60_000)
        let answer = #"{"events": [{"event": "liveProgramStart"}, {"event": "liveEventEnd"}]}"#
        #expect(harness.notifications(harness.answer(200, answer, to: first)) == [.liveProgramStart, .liveEventEnd])
        #expect(harness.notifications(harness.answer(200, answer, to: first)).isEmpty)
        // The playhead reaching the same times later gives nothing again.
        #expect(harness.notifications(harness.tick(Self.end)).isEmpty)
        #expect(harness.notifications(harness.answer(200, #"{"events": [{"event": "overflowEventEnd"}]}"#, to: first)) == [.overflowEventEnd])
        // The post-slate's end was told by the service: not again.
        #expect(harness.notifications(harness.advance(to: harness.now + 60_000)).isEmpty)
    }

    @Test func theServiceEndingARegularEventStopsThePlayback() {
        var harness = Harness { $0.playbackStopOnPlaybackEnd = false }
        _ = harness.load(Harness.options())
        let first = harness.tick(Self.start)
        #expect(harness.notifications(harness.answer(200, #"{"events": [{"event": "liveEventEnd"}]}"#, to: first)) == [.stopPlayback(.liveEventEnd)])
    }

    @Test func aBlackoutIsGivenWhenTheDecisionChanges() {
        var harness = Harness()
        _ = harness.load(Harness.options())
        let first = harness.tick(Self.start)
        let deny = #"{"events": [{"event": "blackout", "action": "DENY", "blackoutUrl": "https://slate.example/b.m3u8"}]}"#
        #expect(harness.notifications(harness.answer(200, deny, to: first)) == [.blackout(.deny, blackoutURL: "https://slate.example/b.m3u8")])
        #expect(harness.notifications(harness.answer(200, deny, to: first)).isEmpty)
        let allow = #"{"events": [{"event": "blackout", "action": "ALLOW"}]}"#
        #expect(harness.notifications(harness.answer(200, allow, to: first)) == [.blackout(.allow, blackoutURL: nil)])
        #expect(harness.notifications(harness.answer(200, deny, to: first)).count == 1)
    }

    @Test func nothingIsGivenAfterAStop() {
        var harness = Harness { $0.maxAllowedFailures = 1 }
        _ = harness.load(Self.event(.overflow, mode: .before))
        let first = harness.tick(Self.start - 1)
        #expect(harness.notifications(harness.answer(500, to: first)) == [.stopPlayback(.heartbeatFailures)])
        #expect(harness.notifications(harness.tick(Self.end)).isEmpty)
        #expect(harness.notifications(harness.answer(200, #"{"events": [{"event": "blackout", "action": "DENY"}]}"#, to: first)).isEmpty)
    }
}
