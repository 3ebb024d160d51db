import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// Media-time timelines: the `position` tick forms, how a document's timeline is read and
/// validated, ticks refused or mapped across timelines, the firing rules on media time, the
/// content position and how times are shown.
@Suite(.timeLimit(.minutes(2))) struct MediaTimeTests {
    /// A VOD on media time: a pre-roll at 0, a mid-roll at 10 min, a post-roll at 30 min (ads of 30 s).
    static let preRoll: Milliseconds = 0
    static let midRoll: Milliseconds = 600_000
    static let postRoll: Milliseconds = 1_800_000
    static let vod = MetadataDocument(
        dataRange: DataRange(start: 0, end: postRoll + Fixture.adDuration),
        adBreaks: [
            Fixture.adBreak(id: "pre", start: preRoll), Fixture.adBreak(id: "mid", start: midRoll), Fixture.adBreak(id: "post", start: postRoll),
        ],
        timeline: .mediaTime)

    /// A player ticking `position` on the VOD, at `position` with a baseline taken.
    func player(at position: Milliseconds, document: MetadataDocument = vod) -> ScriptedPlayer {
        var player = ScriptedPlayer(document, at: position)
        player.tickTimeline = .mediaTime
        player.tick(position)
        return player
    }

    // MARK: Tick forms

    @Test(arguments: [
        ("position 754.312", 754_312),
        ("position 0", 0),
        ("position 12", 12_000),
        ("position 0.0004", 0),
        ("position 1.0005", 1_001),
        ("  position   3.5  ", 3_500),
        (#"{"position": 754.312}"#, 754_312),
    ] as [(String, Milliseconds)])
    func parsesPositions(line: String, position: Milliseconds) {
        #expect(LineParser.parse(line) == .success(.playhead(PlayheadTick(playhead: position, timeline: .mediaTime))))
    }

    @Test func parsesJSONPositionsWithTheirClockAndRate() {
        let line = #"{"position": 61.5, "at": 1700000000123, "rate": 1.05}"#
        let expected = PlayheadTick(playhead: 61_500, observedAt: 1_700_000_000_123, rate: 1.05, timeline: .mediaTime)
        #expect(LineParser.parse(line) == .success(.playhead(expected)))
    }

    @Test(arguments: [
        ("position", "argument"),
        ("position soon", "not a number of seconds"),
        ("position -1", "negative"),
        ("position nan", "not finite"),
        ("position inf", "not finite"),
        ("position 31622400.001", "past 0..366 days"),
        (#"{"position": -0.5}"#, "negative"),
        (#"{"position": "1"}"#, "position"),
        (#"{"position": 1, "playhead": 1675135534076}"#, "not both"),
        (#"{"position": 1, "at": -1}"#, "at is negative"),
        (#"{"position": 1, "rate": -1}"#, "rate"),
        (#"{"at": 1}"#, "position"),
    ])
    func refusesBadPositionsWithTheReason(line: String, reason: String) {
        switch LineParser.parse(line) {
        case .success(let command): Issue.record("accepted '\(line)' as \(command)")
        case .failure(let error): #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    // MARK: A document's timeline

    func decode(start: String, end: String, adBreakStart: String) throws(MetadataError) -> MetadataDocument {
        let body = #"{"dataRange": {"start": \#(start), "end": \#(end)}, "adBreaks": [{"id": "p", "startTime": \#(adBreakStart), "duration": 30000, "ads": [{"id": "a", "startTime": \#(adBreakStart), "duration": 30000, "trackingEvents": [{"event": "impression", "startTime": \#(adBreakStart), "duration": 0, "signalingUrls": ["http://127.0.0.1/i"]}]}]}]}"#
        return try MetadataDocument.decode(Array(body.utf8))
    }

    @Test func aDataRangeStartingNearZeroIsMediaTime() throws {
        let document = try decode(start: "0", end: "1830000", adBreakStart: "600000")
        #expect(document.timeline == .mediaTime)
        #expect(document.adBreaks.first?.startTime == 600_000)
        #expect(try decode(start: "0.4", end: "60000", adBreakStart: "0").timeline == .mediaTime)
    }

    @Test func programDateTimesStayOnProgramDateTime() throws {
        #expect(try decode(start: "1675135000000", end: "1675136000000", adBreakStart: "1675135534076").timeline == .programDateTime)
        #expect(try decode(start: "946684800000", end: "946684900000", adBreakStart: "946684800000").timeline == .programDateTime)
        #expect(MetadataDocument.timeline(ofRangeStarting: 946_684_799_999) == .mediaTime)
        #expect(MetadataDocument.timeline(ofRangeStarting: 946_684_800_000) == .programDateTime)
    }

    @Test(arguments: [
        ("-1", "10000", "0", "dataRange: start -1 is outside 0..366 days of media time and not a program date time"),
        ("631152000000", "631152060000", "631152000000", "dataRange: start 631152000000 is outside 0..366 days of media time"),
        ("0", "31622400001", "0", "dataRange: end 31622400001 is outside 0..366 days"),
        ("0", "60000", "-5", "ad break p: startTime -5 is outside 0..366 days of media time"),
        ("0", "60000", "1675135534076", "ad break p: startTime 1675135534076 is outside 0..366 days of media time"),
        ("60000", "0", "0", "dataRange: end 00:00:00.000 is before start 00:01:00.000"),
    ])
    func mediaTimesOutOfRangeAreRejectedWithTheReason(start: String, end: String, adBreakStart: String, reason: String) {
        #expect(throws: MetadataError.self) { try decode(start: start, end: end, adBreakStart: adBreakStart) }
        do {
            _ = try decode(start: start, end: end, adBreakStart: adBreakStart)
        } catch {
            #expect(error.reason.hasPrefix(reason), "\(error.reason)")
        }
    }

    @Test func aMediaTimeDocumentReadsBackAsWritten() throws {
        let read = try MetadataDocument.decode(Array(Self.vod.encodedJSON().utf8))
        #expect(read == Self.vod)
    }

    // MARK: Refused or mapped ticks

    static let dateTick = PlayheadTick(playhead: 1_675_135_534_076)
    static let positionTick = PlayheadTick(playhead: 12_000, timeline: .mediaTime)

    @Test func aTickOfTheSessionsFormOrBeforeAnyDocumentIsTakenAsItIs() {
        #expect(TickPlacement.place(Self.dateTick, on: .programDateTime, offset: nil).map(\.tick) == .success(Self.dateTick))
        #expect(TickPlacement.place(Self.positionTick, on: .mediaTime, offset: nil).map(\.tick) == .success(Self.positionTick))
        #expect(TickPlacement.place(Self.dateTick, on: nil, offset: nil).map(\.tick) == .success(Self.dateTick))
        #expect(TickPlacement.place(Self.positionTick, on: nil, offset: nil).map(\.tick) == .success(Self.positionTick))
    }

    @Test func aTickOfTheOtherFormIsRefusedWithTheReason() {
        #expect(
            TickPlacement.place(Self.dateTick, on: .mediaTime, offset: nil)
                == .failure(
                    TickRefusal(
                        "a program date time tick on a media-time session (the metadata gives no program date time): send 'position <seconds>'")))
        #expect(
            TickPlacement.place(Self.positionTick, on: .programDateTime, offset: nil)
                == .failure(TickRefusal("a position tick on a program-date-time session: send 'playhead <epoch ms>'")))
    }

    @Test func anOffsetMapsEitherFormOntoTheSessionsTimeline() {
        let offset: Milliseconds = 1_675_135_522_076
        let onMedia = TickPlacement.place(
            PlayheadTick(playhead: 1_675_135_534_076, observedAt: 5, rate: 1, timeline: .programDateTime), on: .mediaTime, offset: offset)
        #expect(onMedia.map(\.tick) == .success(PlayheadTick(playhead: 12_000, observedAt: 5, rate: 1, timeline: .mediaTime)))
        let onDates = TickPlacement.place(Self.positionTick, on: .programDateTime, offset: offset)
        #expect(onDates.map(\.tick) == .success(PlayheadTick(playhead: 1_675_135_534_076, timeline: .programDateTime)))
        let before = TickPlacement.place(PlayheadTick(playhead: offset - 1), on: .mediaTime, offset: offset)
        #expect(before == .failure(TickRefusal("the tick maps before the start of the stream")))
    }

    @Test func theFirstDocumentSetsTheSessionsTimelineAndOneOnTheOtherChangesNothing() {
        var session = TrackingSession(retention: 600_000)
        #expect(session.timeline == nil)
        _ = session.apply(Self.vod)
        #expect(session.timeline == .mediaTime)
        let dates = Fixture.document([Fixture.adBreak(id: "live", start: Fixture.t0)])
        #expect(session.timelineMismatch(of: dates) == "the document is on programDateTime, the session on mediaTime")
        _ = session.apply(dates)
        #expect(session.schedule.adBreak(id: "live") == nil)
        #expect(session.dataRange == Self.vod.dataRange)
        #expect(session.timelineMismatch(of: Self.vod) == nil)
    }

    @Test func aProgramDateTimeTickOnAMediaTimeSessionPlaysNothing() {
        var player = player(at: Self.midRoll - 5000)
        player.tickTimeline = .programDateTime
        player.play(to: Self.midRoll + 40_000)
        #expect(player.fired.isEmpty)
        #expect(player.session.judge.lastPlayhead == Self.midRoll - 5000)
    }

    @Test func withAnOffsetProgramDateTimeTicksFireMediaTimeEvents() {
        var document = Self.vod
        document.programDateTimeOffset = Fixture.t0 - Self.midRoll
        var player = player(at: Self.midRoll - 2000, document: document)
        player.tickTimeline = .programDateTime
        player.tick(Fixture.t0 - 1000)
        player.play(to: Fixture.t0 + 40_000)
        #expect(player.fired.types(ofAd: "mid") == Fixture.playbackTypes)
        #expect(player.session.judge.lastPlayhead == Self.midRoll + 40_000)
    }

    // MARK: The firing rules on media time

    @Test func prePostAndMidRollsFireOnceEachInOrder() {
        var player = player(at: 0)
        player.play(to: 40_000)
        player.jump(to: Self.midRoll - 5000)
        player.play(to: Self.midRoll + 40_000)
        player.jump(to: Self.postRoll - 5000)
        player.play(to: Self.postRoll + 30_000)
        #expect(player.fired.types(ofAd: "pre") == Fixture.playbackTypes)
        #expect(player.fired.types(ofAd: "mid") == Fixture.playbackTypes)
        #expect(player.fired.types(ofAd: "post") == Fixture.playbackTypes)
        #expect(player.fired.map(\.adBreakID) == Array(repeating: "pre", count: 6) + Array(repeating: "mid", count: 6) + Array(repeating: "post", count: 6))
    }

    @Test func aSeekOverTheMidRollFiresNothing() {
        var player = player(at: Self.midRoll - 10_000)
        player.play(to: Self.midRoll - 5000)
        player.jump(to: Self.midRoll + 60_000)
        player.play(to: Self.midRoll + 90_000)
        #expect(player.fired.isEmpty)
    }

    @Test func pauseAndResumeInsideAnAdFirePauseAndResume() {
        var player = player(at: Self.midRoll - 2000)
        player.play(to: Self.midRoll + 10_000)
        #expect(player.send(.pause).types == [.pause])
        #expect(player.send(.play).types == [.resume])
        player.tick(Self.midRoll + 10_250)
        #expect(player.fired.types(ofAd: "mid") == [.impression, .start, .firstQuartile, .pause, .resume])
    }

    @Test func anAbnormalRateOrARewindPlaysNothing() {
        var player = player(at: Self.midRoll - 2000)
        player.play(to: Self.midRoll - 1000, rate: 2)
        player.play(to: Self.midRoll + 40_000, rate: 2)
        #expect(player.fired.isEmpty)
        var rewinding = self.player(at: Self.midRoll + 40_000)
        rewinding.tick(Self.midRoll - 1000)
        #expect(rewinding.fired.isEmpty)
    }

    @Test func lateMetadataFiresWhatWasAlreadyPlayed() {
        var session = TrackingSession(retention: 600_000)
        _ = session.apply(MetadataDocument(dataRange: DataRange(start: 0, end: 60_000), adBreaks: [], timeline: .mediaTime))
        var player = ScriptedPlayer(session: session, at: 0)
        player.tickTimeline = .mediaTime
        player.tick(0)
        player.play(to: 35_000)
        #expect(player.fired.isEmpty)
        let late = player.apply(MetadataDocument(dataRange: DataRange(start: 0, end: 60_000), adBreaks: [Fixture.adBreak(id: "pre", start: 0)], timeline: .mediaTime))
        #expect(late.types == Fixture.playbackTypes)
    }

    @Test func aTickSwitchingTimelineBeforeAnyDocumentOnlySetsABaseline() {
        var judge = PlaybackJudge()
        _ = judge.observe(PlayheadTick(playhead: 1000, timeline: .mediaTime), arrivalTime: 0)
        #expect(judge.observe(PlayheadTick(playhead: 1250, timeline: .programDateTime), arrivalTime: 250) == nil)
        #expect(judge.observe(PlayheadTick(playhead: 1500, timeline: .programDateTime), arrivalTime: 500) == 1250...1500)
        #expect(judge.observe(PlayheadTick(playhead: 1750, timeline: .mediaTime), arrivalTime: 750) == nil)
    }

    // MARK: The journal

    @Test func theSnapshotKeepsTheTimelineAndARestartResumesIt() throws {
        var document = Self.vod
        document.programDateTimeOffset = 1_675_135_000_000
        var session = TrackingSession(retention: 600_000)
        _ = session.apply(document)
        let snapshot = session.snapshot(endpoints: SessionEndpoints(mediaURL: "m", manifestURL: "m", trackingURL: "t", sessionID: "s"), savedAt: 1)
        let read = try JSONDecoder().decode(SessionSnapshot.self, from: Data(snapshot.jsonBytes()))
        #expect(read == snapshot)
        #expect(read.timeline == .mediaTime && read.programDateTimeOffset == 1_675_135_000_000)
        let resumed = TrackingSession.resuming(read, states: [:], retention: 600_000).session
        #expect(resumed.timeline == .mediaTime)
        #expect(resumed.programDateTimeOffset == 1_675_135_000_000)
        #expect(resumed.placed(Self.positionTick).map(\.tick) == .success(Self.positionTick))
    }

    @Test func aSnapshotOfAnEarlierReleaseResumesOnProgramDateTime() throws {
        let json = #"{"endpoints": {"mediaUrl": "m", "manifestUrl": "m", "trackingUrl": "t", "sessionId": null}, "adBreaks": [], "dataRange": {"start": 1675135000000, "end": 1675136000000}, "played": [], "savedAt": 1}"#
        let snapshot = try JSONDecoder().decode(SessionSnapshot.self, from: Data(json.utf8))
        let resumed = TrackingSession.resuming(snapshot, states: [:], retention: 600_000).session
        #expect(resumed.timeline == .programDateTime)
        #expect(resumed.placed(Self.positionTick).isFailure)
    }

    // MARK: Content position

    @Test(arguments: [
        (0, [], 0),
        (5000, [], 5000),
        (5000, [0...30_000], 0),
        (30_000, [0...30_000], 0),
        (40_000, [0...30_000], 10_000),
        (599_000, [0...30_000, 600_000...630_000], 569_000),
        (610_000, [0...30_000, 600_000...630_000], 570_000),
        (700_000, [0...30_000, 600_000...630_000], 640_000),
        (700_000, [600_000...630_000, 0...30_000], 640_000),
        (700_000, [0...30_000, 10_000...40_000, 20_000...25_000], 660_000),
        (700_000, [600_000...630_000, 0...30_000, 610_000...640_000], 630_000),
        (20_000, [10_000...10_000], 20_000),
        (5000, [600_000...630_000], 5000),
    ] as [(Milliseconds, [ClosedRange<Milliseconds>], Milliseconds)])
    func contentPositionLeavesOutTheBreaksBefore(position: Milliseconds, breaks: [ClosedRange<Milliseconds>], content: Milliseconds) {
        #expect(ContentPosition.of(position, breaks: breaks) == content)
    }

    @Test func aMediaTimeSessionHasAContentPositionAndAProgramDateTimeOneNone() {
        var player = player(at: Self.midRoll + 40_000)
        #expect(player.session.contentPosition == Self.midRoll + 40_000 - 2 * Fixture.adDuration)
        player.tick(Self.midRoll + 40_250)
        #expect(player.session.contentPosition == Self.midRoll + 40_250 - 2 * Fixture.adDuration)
        var dates = ScriptedPlayer(Fixture.document([Fixture.adBreak(id: "p", start: Fixture.t0)]), at: Fixture.t0 + 40_000)
        dates.tick(Fixture.t0 + 40_000)
        #expect(dates.session.contentPosition == nil)
        #expect(TrackingSession(retention: 1).contentPosition == nil)
    }

    // MARK: How times are shown

    @Test(arguments: [
        (0, "00:00:00.000"), (754_312, "00:12:34.312"), (3_723_456, "01:02:03.456"), (360_000_000, "100:00:00.000"), (-1500, "-00:00:01.500"),
    ] as [(Milliseconds, String)])
    func mediaTimesReadAsHoursMinutesSecondsAndMilliseconds(time: Milliseconds, text: String) {
        #expect(MediaTime.format(time) == text)
        #expect(Timeline.mediaTime.format(time) == text)
    }

    static func report(timeline: Timeline?) -> StatusReport {
        let vod = Self.vod
        return StatusReport(
            version: "1", state: "playing", session: nil, playhead: timeline == .mediaTime ? 610_000 : Fixture.t0, lastTickAt: 1_700_000_000_000,
            dataRange: vod.dataRange, adBreaks: timeline == .mediaTime ? vod.adBreaks : [], counters: StatusReport.Counters(),
            timeline: timeline, contentPosition: timeline == .mediaTime ? 580_000 : nil)
    }

    @Test func statusShowsMediaTimesAsHoursMinutesSeconds() {
        let lines = StatusView.render(Self.report(timeline: .mediaTime)).split(separator: "\n").map(String.init)
        #expect(lines.contains("playhead      00:10:10.000"))
        #expect(lines.contains("content       00:09:40.000 without ad breaks"))
        #expect(lines.contains("data range    00:00:00.000 .. 00:30:30.000"))
        #expect(lines.contains("ad break mid   00:10:00.000   30.0s"))
        #expect(lines.contains("  ad mid   00:10:00.000   30.0s"))
        let dates = StatusView.render(Self.report(timeline: nil)).split(separator: "\n").map(String.init)
        #expect(dates.contains("playhead      2023-01-31T03:25:34.076Z"))
        #expect(!dates.contains { $0.hasPrefix("content") })
    }

    @Test func watchShowsMediaTimesAsHoursMinutesSeconds() {
        let frame = WatchView.render(
            report: Self.report(timeline: .mediaTime), history: [], now: 1_700_000_000_000, width: 120, colour: false)
        #expect(frame.contains("playhead      00:10:10.000"))
        #expect(frame.contains("content       00:09:40.000   without ad breaks"))
        #expect(frame.contains("ad break      mid   ad 1 of 1: mid"))
    }

    @Test func theStatusDocumentCarriesTheTimelineAndTheContentPosition() throws {
        let report = Self.report(timeline: .mediaTime)
        let line = report.jsonLine()
        #expect(line.contains(#""timeline":"mediaTime""#))
        #expect(line.contains(#""contentPosition":580000"#))
        #expect(try StatusReport.decode(jsonLine: line) == report)
        let dates = Self.report(timeline: .programDateTime).jsonLine()
        #expect(dates.contains(#""contentPosition":null"#))
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { true } else { false }
    }
}
