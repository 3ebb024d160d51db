import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The ad lifecycle: ad breaks and ads entered and left, completed or skipped, always bookended,
/// on both timelines; where the playhead is; the metadata changing under the playhead; the end
/// of a session.
@Suite(.timeLimit(.minutes(2))) struct AdLifecycleTests {
    /// Content from `t0`; ad break A at +60 s (ads a1, a2 of 15 s back to back), ad break B at +300 s (b1, b2).
    static let base = Fixture.t0
    static func at(_ seconds: Double) -> Milliseconds { base + Milliseconds(seconds * 1000) }
    static let adBreakA = Fixture.adBreak(id: "A", ads: [Fixture.ad(id: "a1", start: at(60), duration: 15_000), Fixture.ad(id: "a2", start: at(75), duration: 15_000)])
    static let adBreakB = Fixture.adBreak(id: "B", ads: [Fixture.ad(id: "b1", start: at(300), duration: 15_000), Fixture.ad(id: "b2", start: at(315), duration: 15_000)])
    static let document = MetadataDocument(dataRange: DataRange(start: base, end: at(400)), adBreaks: [adBreakA, adBreakB])

    // MARK: Entering and leaving

    @Test func anAdBreakPlayedThroughStartsAndCompletesEachAdInsideIt() {
        var player = LifecyclePlayer(Self.document, at: Self.at(50))
        player.play(to: Self.at(95))
        #expect(player.told == ["adBreakStarted A", "adStarted a1", "adCompleted a1", "adStarted a2", "adCompleted a2", "adBreakCompleted A"])
    }

    @Test func eachStartComesOnTheTickThatEntersAndEachEndOnTheTickThatLeaves() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59.75))
        #expect(player.tick(Self.at(60)) == ["adBreakStarted A", "adStarted a1"])
        #expect(player.tick(Self.at(60.25)) == [])
        player.play(to: Self.at(74.75))
        #expect(player.tick(Self.at(75)) == ["adCompleted a1", "adStarted a2"])
        player.play(to: Self.at(89.75))
        #expect(player.tick(Self.at(90)) == ["adCompleted a2", "adBreakCompleted A"])
        #expect(player.tick(Self.at(90.25)) == [])
    }

    @Test func aSeekOutOfAnAdSkipsItAndCompletesItsAdBreak() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59))
        player.play(to: Self.at(65))
        #expect(player.tick(Self.at(200)) == ["adSkipped a1", "adBreakCompleted A"])
        #expect(player.placement == nil)
    }

    @Test func aJumpFromOneAdBreakIntoAnotherLeavesTheFirstBeforeEnteringTheSecond() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59))
        player.play(to: Self.at(65))
        #expect(player.tick(Self.at(320)) == ["adSkipped a1", "adBreakCompleted A", "adBreakStarted B", "adStarted b2"])
        #expect(player.placement?.ad?.position == 2)
    }

    @Test func aJumpOverAWholeAdBreakTellsNothingOfIt() {
        var player = LifecyclePlayer(Self.document, at: Self.at(50))
        #expect(player.tick(Self.at(200)) == [])
        #expect(player.tick(Self.at(400)) == [])
        #expect(player.told == [])
    }

    @Test func aSeekWithinAnAdBreakSkipsTheAdLeftAndKeepsTheAdBreakOpen() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59))
        player.play(to: Self.at(65))
        #expect(player.tick(Self.at(80)) == ["adSkipped a1", "adStarted a2"])
        #expect(player.tick(Self.at(62)) == ["adSkipped a2", "adStarted a1"])
    }

    @Test func aSeekFromNearAnAdsEndCompletesIt() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59))
        player.play(to: Self.at(74.5))
        #expect(player.tick(Self.at(200)) == ["adCompleted a1", "adBreakCompleted A"])
    }

    @Test func aBriefAdIsNotCompletedByAGlimpse() {
        let brief = Fixture.adBreak(id: "C", ads: [Fixture.ad(id: "c1", start: Self.at(100), duration: 1_000)])
        var player = LifecyclePlayer(MetadataDocument(dataRange: DataRange(start: Self.base, end: Self.at(400)), adBreaks: [brief]), at: Self.at(100.1))
        #expect(player.tick(Self.at(200)) == ["adSkipped c1", "adBreakCompleted C"])
    }

    @Test func pausingRewindingAndResumingInsideAnAdTellNothing() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59))
        player.play(to: Self.at(64))
        player.send(.pause)
        player.tick(Self.at(64))
        player.send(.play)
        player.tick(Self.at(61))
        player.play(to: Self.at(70))
        #expect(player.told == ["adBreakStarted A", "adStarted a1"])
    }

    @Test func backToBackAdBreaksAreLeftAndEnteredOnOneTick() {
        let first = Fixture.adBreak(id: "C", ads: [Fixture.ad(id: "c1", start: Self.at(100), duration: 10_000)])
        let second = Fixture.adBreak(id: "D", ads: [Fixture.ad(id: "d1", start: Self.at(110), duration: 10_000)])
        var player = LifecyclePlayer(MetadataDocument(dataRange: DataRange(start: Self.base, end: Self.at(400)), adBreaks: [first, second]), at: Self.at(99))
        player.play(to: Self.at(121))
        #expect(player.told == ["adBreakStarted C", "adStarted c1", "adCompleted c1", "adBreakCompleted C", "adBreakStarted D", "adStarted d1", "adCompleted d1", "adBreakCompleted D"])
    }

    @Test func aGapBetweenAdsIsInsideTheAdBreakWithoutAnAd() {
        let gapped = AdBreak(
            id: "G", startTime: Self.at(100), duration: 30_000,
            ads: [Fixture.ad(id: "g1", start: Self.at(100), duration: 10_000), Fixture.ad(id: "g2", start: Self.at(120), duration: 10_000)])
        var player = LifecyclePlayer(MetadataDocument(dataRange: DataRange(start: Self.base, end: Self.at(400)), adBreaks: [gapped]), at: Self.at(99))
        player.play(to: Self.at(115))
        #expect(player.told == ["adBreakStarted G", "adStarted g1", "adCompleted g1"])
        #expect(player.placement?.adBreak.id == "G")
        #expect(player.placement?.ad == nil)
        #expect(player.placement?.offsetInAd == nil)
        player.play(to: Self.at(131))
        #expect(player.told.suffix(3) == ["adStarted g2", "adCompleted g2", "adBreakCompleted G"])
    }

    // MARK: What is told of ad breaks and ads

    @Test func adBreaksAreNumberedByStartAndPlacedInTheContentFromTheFirstPlayheadOnProgramDateTime() throws {
        var player = LifecyclePlayer(Self.document, at: Self.at(50))
        player.play(to: Self.at(61))
        player.tick(Self.at(301))
        let started = player.events.compactMap { event -> AdBreakSummary? in
            if case .adBreakStarted(let adBreak) = event { adBreak } else { nil }
        }
        #expect(started.map(\.index) == [1, 2])
        // 10 s of content from the first playhead to A; then 240 s less A's 30 s to B.
        #expect(started.map(\.contentOffset) == [10, 220])
        #expect(started[0] == AdBreakSummary(id: "A", index: 1, startTime: Self.at(60), duration: 30_000, contentOffset: 10))
    }

    @Test func anAdIsToldWithItsPlaceInItsAdBreakAndWhatTheMetadataSaysOfIt() throws {
        var described = Self.adBreakA
        described.ads[1].title = "Polar bear"
        described.ads[1].creativeID = "00006"
        described.ads[1].adSystem = "2.0"
        var player = LifecyclePlayer(MetadataDocument(dataRange: Self.document.dataRange, adBreaks: [described]), at: Self.at(74))
        player.play(to: Self.at(76))
        let expected = AdSummary(
            id: "a2", adBreakID: "A", position: 2, startTime: Self.at(75), duration: 15_000, title: "Polar bear", creativeID: "00006", adSystem: "2.0")
        #expect(player.events.last == .adStarted(expected))
    }

    @Test func thePlacementGivesTheOffsetsInsideTheAdBreakAndTheAd() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59))
        player.play(to: Self.at(80))
        #expect(player.placement?.adBreak.id == "A")
        #expect(player.placement?.ad?.id == "a2")
        #expect(player.placement?.offsetInAdBreak == 20_000)
        #expect(player.placement?.offsetInAd == 5_000)
        player.play(to: Self.at(95))
        #expect(player.placement == nil)
    }

    @Test func onMediaTimeTheContentOffsetCountsFromTheStartWithoutTheAdBreaksBefore() {
        let vod = MetadataDocument(
            dataRange: DataRange(start: 0, end: 1_000_000),
            adBreaks: [
                Fixture.adBreak(id: "pre", start: 0, duration: 20_000), Fixture.adBreak(id: "mid", start: 320_000, duration: 20_000),
            ],
            timeline: .mediaTime)
        var player = LifecyclePlayer(vod, at: 0, timeline: .mediaTime)
        player.play(to: 21_000)
        player.tick(330_000)
        player.end()
        #expect(player.told == ["adBreakStarted pre", "adStarted pre", "adCompleted pre", "adBreakCompleted pre", "adBreakStarted mid", "adStarted mid", "adSkipped mid", "adBreakCompleted mid"])
        let offsets = player.events.compactMap { event -> Double? in
            if case .adBreakStarted(let adBreak) = event { adBreak.contentOffset } else { nil }
        }
        #expect(offsets == [0, 300])
    }

    @Test func positionTicksMappedOntoProgramDateTimeFindTheSameAdBreaks() {
        let offset: Milliseconds = Self.base
        var mapped = Self.document
        mapped.programDateTimeOffset = offset
        var player = LifecyclePlayer(mapped, at: 59_000, timeline: .mediaTime)
        player.play(to: 76_000)
        #expect(player.told == ["adBreakStarted A", "adStarted a1", "adCompleted a1", "adStarted a2"])
    }

    @Test func anAdBreakKeepsItsNumberWhenTheLiveWindowForgetsTheOnesBefore() {
        var player = LifecyclePlayer(Self.document, at: Self.at(50), retention: 60_000)
        player.play(to: Self.at(61))
        player.tick(Self.at(200))
        let adBreakC = Fixture.adBreak(id: "C", start: Self.at(500), duration: 10_000)
        player.apply(MetadataDocument(dataRange: DataRange(start: Self.at(290), end: Self.at(600)), adBreaks: [Self.adBreakB, adBreakC]))
        #expect(player.session.tracking.schedule.adBreak(id: "A") == nil)
        player.tick(Self.at(301))
        player.tick(Self.at(501))
        let indexes = player.events.compactMap { event -> Int? in
            if case .adBreakStarted(let adBreak) = event { adBreak.index } else { nil }
        }
        #expect(indexes == [1, 2, 3])
    }

    @Test func mediaTailorsAvailTrackingIsNoAdAndAnEmptyAvailIsStillAnAdBreak() {
        let tracking = Ad(
            id: MediaTailorDocument.adBreakTrackingAdID, startTime: 100_000, duration: 30_000,
            trackingEvents: [TrackingEvent(event: .breakStart, startTime: 100_000, duration: 0, signalingURLs: ["http://127.0.0.1/b"])])
        let avail = AdBreak(id: "avail", startTime: 100_000, duration: 30_000, ads: [tracking])
        var player = LifecyclePlayer(MetadataDocument(dataRange: DataRange(start: 0, end: 200_000), adBreaks: [avail], timeline: .mediaTime), at: 99_000, timeline: .mediaTime)
        player.play(to: 131_000)
        #expect(player.told == ["adBreakStarted avail", "adBreakCompleted avail"])
    }

    // MARK: The metadata changing under the playhead

    @Test func anAdWithdrawnUnderThePlayheadIsSkippedAndItsAdBreakGoesOn() {
        var player = LifecyclePlayer(Self.document, at: Self.at(50))
        // Landed by a seek: nothing of a1 fired, so the metadata may still withdraw it.
        player.tick(Self.at(65))
        #expect(player.told == ["adBreakStarted A", "adStarted a1"])
        var withoutA1 = Self.adBreakA
        withoutA1.ads.removeFirst()
        player.apply(MetadataDocument(dataRange: Self.document.dataRange, adBreaks: [withoutA1, Self.adBreakB]))
        #expect(player.tick(Self.at(65.25)) == ["adSkipped a1"])
        #expect(player.placement?.adBreak.id == "A")
        #expect(player.placement?.ad == nil)
        player.play(to: Self.at(91))
        #expect(player.told.suffix(3) == ["adStarted a2", "adCompleted a2", "adBreakCompleted A"])
    }

    @Test func anAdBreakWhoseEveryAdIsWithdrawnUnderThePlayheadIsLeft() {
        var player = LifecyclePlayer(Self.document, at: Self.at(50))
        player.tick(Self.at(65))
        var emptied = Self.adBreakA
        emptied.ads = []
        player.apply(MetadataDocument(dataRange: Self.document.dataRange, adBreaks: [emptied, Self.adBreakB]))
        #expect(player.tick(Self.at(65.25)) == ["adSkipped a1", "adBreakCompleted A"])
        #expect(player.placement == nil)
    }

    @Test func anAdShortenedToEndBeforeThePlayheadIsCompletedByItsNewEnd() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59))
        player.play(to: Self.at(70))
        var shortened = Self.adBreakA
        shortened.ads[0].duration = 9_000
        player.apply(MetadataDocument(dataRange: Self.document.dataRange, adBreaks: [shortened, Self.adBreakB]))
        let told = player.tick(Self.at(70.25))
        #expect(told == ["adCompleted a1"])
        #expect(player.events.last == .adCompleted(AdSummary(id: "a1", adBreakID: "A", position: 1, startTime: Self.at(60), duration: 9_000)))
    }

    @Test func anAdLengthenedUnderThePlayheadIsStillPlayedToItsNewEnd() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59))
        player.play(to: Self.at(70))
        var lengthened = Self.adBreakA
        lengthened.ads[0].duration = 20_000
        lengthened.ads[1].startTime = Self.at(80)
        lengthened.duration = 35_000
        player.apply(MetadataDocument(dataRange: Self.document.dataRange, adBreaks: [lengthened, Self.adBreakB]))
        player.play(to: Self.at(79.75))
        #expect(player.told == ["adBreakStarted A", "adStarted a1"])
        #expect(player.placement?.ad?.duration == 20_000)
        #expect(player.tick(Self.at(80)) == ["adCompleted a1", "adStarted a2"])
    }

    // MARK: The end of a session

    @Test func theEndOfASessionInsideAnAdSkipsItAndCompletesItsAdBreak() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59))
        player.play(to: Self.at(65))
        #expect(player.end() == ["adSkipped a1", "adBreakCompleted A"])
        #expect(player.placement == nil)
        #expect(player.end() == [])
    }

    @Test func theEndOfASessionAtAnAdsEndCompletesIt() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59))
        player.play(to: Self.at(89.5))
        #expect(player.end() == ["adCompleted a2", "adBreakCompleted A"])
    }

    @Test func theEndOfASessionInTheContentTellsNothing() {
        var player = LifecyclePlayer(Self.document, at: Self.at(59))
        player.play(to: Self.at(100))
        let before = player.told
        #expect(player.end() == [])
        #expect(player.told == before)
    }

}

/// A player driving an `ActiveSession` on a synthetic clock, keeping what the ad lifecycle told.
struct LifecyclePlayer {
    var session: ActiveSession
    var clock: Milliseconds = 1_700_000_000_000
    var playhead: Milliseconds
    var timeline: Timeline
    var events: [AdLifecycleEvent] = []

    init(_ document: MetadataDocument, at playhead: Milliseconds, timeline: Timeline = .programDateTime, retention: Milliseconds = 600_000) {
        var tracking = TrackingSession(retention: retention)
        _ = tracking.apply(document)
        session = ActiveSession(
            endpoints: SessionEndpoints(mediaURL: "m", manifestURL: "m", trackingURL: "t", sessionID: "s"), tracking: tracking, generation: 1,
            metadata: MetadataRefresh(interval: 10_000))
        self.playhead = playhead
        self.timeline = timeline
        tick(playhead)
    }

    /// Each event in one word and the id of its ad break or ad.
    var told: [String] { events.map(\.told) }
    var placement: AdPlacement? { session.placement }

    /// One tick at `playhead`, arriving `after` ms after the previous one; what it told.
    @discardableResult
    mutating func tick(_ playhead: Milliseconds, after: Milliseconds = 250) -> [String] {
        clock += after
        self.playhead = playhead
        let told = (try? session.observe(PlayheadTick(playhead: playhead, timeline: timeline), arrivalTime: clock).get())?.adLifecycle ?? []
        events += told
        return told.map(\.told)
    }

    /// Ticks every `step` ms of both program and arrival time up to `end`.
    mutating func play(to end: Milliseconds, step: Milliseconds = 250) {
        while playhead < end { tick(min(playhead + step, end), after: step) }
    }

    mutating func send(_ event: PlayerEvent) {
        _ = session.tracking.observe(event, arrivalTime: clock)
    }

    mutating func apply(_ document: MetadataDocument) {
        _ = session.tracking.apply(document)
    }

    @discardableResult
    mutating func end() -> [String] {
        let told = session.adLifecycle.end()
        events += told
        return told.map(\.told)
    }
}

extension AdLifecycleEvent {
    fileprivate var told: String {
        switch self {
        case .adBreakStarted(let adBreak): "adBreakStarted \(adBreak.id)"
        case .adStarted(let ad): "adStarted \(ad.id)"
        case .adCompleted(let ad): "adCompleted \(ad.id)"
        case .adSkipped(let ad): "adSkipped \(ad.id)"
        case .adBreakCompleted(let adBreak): "adBreakCompleted \(adBreak.id)"
        }
    }
}

extension AdLifecycleTests {
    /// CPU-bound for seconds: `make test` runs it in its sweeps step, apart from the tests that
    /// need the cooperative pool on time (loopback servers, timers, waits).
    @Suite(.timeLimit(.minutes(5))) struct Sweeps {
        @Test func everyStartHasItsEndWhateverThePlayerDoes() {
            var generator = SeededGenerator(seed: 17)
            for _ in 0..<50 {
                var player = LifecyclePlayer(AdLifecycleTests.document, at: AdLifecycleTests.at(40))
                for _ in 0..<40 {
                    if Int.random(in: 0..<4, using: &generator) == 0 {
                        player.tick(AdLifecycleTests.at(Double.random(in: 40...360, using: &generator)))
                    } else {
                        player.play(to: player.playhead + Milliseconds.random(in: 250...8_000, using: &generator))
                    }
                }
                player.end()
                var openAdBreak: String?
                var openAd: String?
                for event in player.events {
                    switch event {
                    case .adBreakStarted(let adBreak):
                        #expect(openAdBreak == nil && openAd == nil)
                        openAdBreak = adBreak.id
                    case .adStarted(let ad):
                        #expect(openAdBreak == ad.adBreakID && openAd == nil)
                        openAd = ad.id
                    case .adCompleted(let ad), .adSkipped(let ad):
                        #expect(openAd == ad.id && openAdBreak == ad.adBreakID)
                        openAd = nil
                    case .adBreakCompleted(let adBreak):
                        #expect(openAdBreak == adBreak.id && openAd == nil)
                        openAdBreak = nil
                    }
                }
                #expect(openAdBreak == nil && openAd == nil)
            }
        }
    }
}
