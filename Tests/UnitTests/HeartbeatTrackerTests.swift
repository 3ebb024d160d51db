import Testing
@testable import BeaconDomain

/// A heartbeat tracker driven at given instants: what it sends, tells the player and keeps.
struct HeartbeatHarness {
    static let endpoint = "http://hb.example/heartbeat"
    static let concurrency = "http://hb.example/concurrency"
    static let wallOffset: Milliseconds = 1_700_000_000_000

    var tracker: HeartbeatTracker
    var now: Milliseconds = 1_000_000

    init(_ configure: (inout HeartbeatSettings) -> Void = { _ in }) {
        var settings = HeartbeatSettings()
        settings.endpoint = Self.endpoint
        settings.syncInterval = .seconds(60)
        configure(&settings)
        tracker = HeartbeatTracker(settings: settings, deviceID: "box-1")
    }

    static func options(live: Bool = true, _ configure: (inout HeartbeatOptions) -> Void = { _ in }) -> HeartbeatOptions {
        var options = HeartbeatOptions(flag: true, token: "secret", contentID: "c1", catalogType: live ? "live" : "vod", primaryContentID: "p1")
        configure(&options)
        return options
    }

    mutating func handle(_ input: HeartbeatInput) -> [HeartbeatAction] {
        tracker.handle(input, now: now, wallNow: now + Self.wallOffset)
    }

    mutating func load(_ options: HeartbeatOptions?, streamType: ContentInformation.StreamType? = nil, sessionID: String? = "s1") -> [HeartbeatAction] {
        handle(.loaded(options, streamType: streamType)) + handle(.sessionReady(sessionID: sessionID))
    }

    /// A tick on program date time (live) or media time (VOD), with its content position.
    mutating func tick(_ playhead: Milliseconds, timeline: Timeline = .programDateTime, contentPosition: Milliseconds? = nil) -> [HeartbeatAction] {
        handle(.playhead(PlayheadObservation(tick: PlayheadTick(playhead: playhead, timeline: timeline), contentPosition: contentPosition)))
    }

    /// Moves time to `instant`, calling the tracker at each wake it asked for on the way.
    mutating func advance(to instant: Milliseconds) -> [HeartbeatAction] {
        var actions: [HeartbeatAction] = []
        while let wake = tracker.nextWake, wake <= instant {
            now = max(now, wake)
            actions += tracker.due(now: now, wallNow: now + Self.wallOffset)
        }
        now = max(now, instant)
        return actions
    }

    mutating func record(_ outcome: HeartbeatOutcome, of actions: [HeartbeatAction]) -> [HeartbeatAction] {
        requests(actions).flatMap { tracker.record(outcome, of: $0, now: now, wallNow: now + Self.wallOffset) }
    }

    mutating func answer(_ status: Int, _ body: String = "", to actions: [HeartbeatAction]) -> [HeartbeatAction] {
        record(.answered(status: status, body: Array(body.utf8)), of: actions)
    }

    func requests(_ actions: [HeartbeatAction]) -> [HeartbeatRequest] {
        actions.compactMap { if case .send(let request) = $0 { request } else { nil } }
    }

    func events(_ actions: [HeartbeatAction]) -> [String] { requests(actions).map(\.eventName) }

    func notifications(_ actions: [HeartbeatAction]) -> [PlayerNotification] {
        actions.compactMap { if case .notify(let notification) = $0 { notification } else { nil } }
    }

    /// The JSON body of a request, as an object.
    func body(_ request: HeartbeatRequest) -> [String: JSONValue] {
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(request.body)) else { return [:] }
        return object
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Any JSON value, to read what was sent.
enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }
}

/// The heartbeat's cadence, states, failures, stops, concurrency and bookmarks, in virtual time.
@Suite(.timeLimit(.minutes(2))) struct HeartbeatTrackerTests {
    typealias Harness = HeartbeatHarness
    static let t0: Milliseconds = 1_767_225_600_000

    @Test func noHeartbeatWithoutTheFlagOrAnEndpoint() {
        var harness = Harness()
        #expect(harness.load(nil).isEmpty)
        #expect(harness.tick(Self.t0).isEmpty)
        #expect(harness.load(HeartbeatOptions(flag: false, contentID: "c1")).isEmpty)
        #expect(harness.tick(Self.t0).isEmpty)
        #expect(harness.tracker.nextWake == nil)
        var unconfigured = Harness { $0.endpoint = nil }
        #expect(unconfigured.load(Harness.options()).isEmpty)
        #expect(unconfigured.tick(Self.t0).isEmpty)
    }

    @Test func startsAtTheFirstPlayheadThenProgressesEverySyncInterval() {
        var harness = Harness()
        let start = harness.now
        #expect(harness.load(Harness.options()).isEmpty)
        let first = harness.tick(Self.t0)
        #expect(harness.events(first) == ["start"])
        #expect(harness.events(harness.tick(Self.t0 + 1_000)).isEmpty)
        #expect(harness.tracker.nextWake == start + 60_000)
        #expect(harness.events(harness.advance(to: start + 59_999)).isEmpty)
        #expect(harness.events(harness.advance(to: start + 60_000)) == ["progress"])
        #expect(harness.events(harness.advance(to: start + 180_000)) == ["progress", "progress"])
        #expect(harness.tracker.nextWake == start + 240_000)
    }

    @Test func aPlayEventStartsTheHeartbeatBeforeAnyPlayhead() {
        var harness = Harness()
        _ = harness.load(Harness.options())
        let started = harness.handle(.playerEvent(.play))
        #expect(harness.events(started) == ["start"])
        #expect(harness.body(harness.requests(started)[0])["playhead"] == .null)
        #expect(harness.events(harness.tick(Self.t0)).isEmpty)
    }

    @Test func thePlaybacksFreqOverridesTheSettingAndTheAnswerOverridesBoth() {
        var harness = Harness()
        let start = harness.now
        _ = harness.load(Harness.options { $0.freq = 10_000 })
        let first = harness.tick(Self.t0)
        #expect(harness.tracker.syncInterval == 10_000)
        #expect(harness.events(harness.advance(to: start + 10_000)) == ["progress"])
        _ = harness.answer(200, #"{"syncInterval": 30000}"#, to: first)
        #expect(harness.tracker.syncInterval == 30_000)
        // Counted from the last progress, at start + 10 s.
        #expect(harness.tracker.nextWake == start + 40_000)
        #expect(harness.events(harness.advance(to: start + 39_999)).isEmpty)
        #expect(harness.events(harness.advance(to: start + 40_000)) == ["progress"])
    }

    @Test func anySyncIntervalIsBounded() {
        var harness = Harness()
        _ = harness.load(Harness.options { $0.freq = 1 })
        #expect(harness.tracker.syncInterval == HeartbeatTracker.syncIntervalRange.lowerBound)
        let first = harness.tick(Self.t0)
        _ = harness.answer(200, #"{"syncInterval": 1e14}"#, to: first)
        #expect(harness.tracker.syncInterval == HeartbeatTracker.syncIntervalRange.upperBound)
    }

    @Test func eachStateChangeIsSentOnceAndSeeksReturnToTheStateBefore() {
        var harness = Harness()
        _ = harness.load(Harness.options())
        _ = harness.tick(Self.t0)
        var states: [String] = []
        for event: PlayerEvent in [.pause, .pause, .seekStart, .bufferStart, .bufferEnd, .play, .bufferStart, .bufferEnd, .rate(2), .complete] {
            for request in harness.requests(harness.handle(.playerEvent(event))) {
                #expect(request.eventName == "stateChange")
                if case .string(let state)? = harness.body(request)["state"] { states.append(state) }
            }
        }
        // The pause repeated and the rate change send nothing; the seek ended by buffering returns to paused.
        #expect(states == ["paused", "seeking", "buffering", "paused", "playing", "buffering", "playing", "stopped"])
        let failed = harness.handle(.playerFailed)
        #expect(harness.events(failed) == ["stateChange"])
        #expect(harness.body(harness.requests(failed)[0])["state"] == .string("error"))
    }

    @Test func theStopGoesAtTheEndOfThePlaybackAndNothingAfter() {
        var harness = Harness()
        _ = harness.load(Harness.options())
        _ = harness.tick(Self.t0)
        let ended = harness.handle(.sessionEnded(sessionID: "s1"))
        #expect(harness.events(ended) == ["stop"])
        #expect(harness.body(harness.requests(ended)[0])["state"] == .string("stopped"))
        #expect(harness.tracker.playback == nil)
        #expect(harness.tracker.nextWake == nil)
        #expect(harness.tick(Self.t0 + 1_000).isEmpty)
    }

    @Test func aNewLoadEndsThePlaybackAndTheOldSessionsEndIsNotTheNewOnes() {
        var harness = Harness { $0.concurrencyEndpoint = Harness.concurrency }
        _ = harness.load(Harness.options())
        _ = harness.tick(Self.t0)
        let reloaded = harness.handle(.loaded(Harness.options { $0.contentID = "c2" }, streamType: nil))
        #expect(harness.events(reloaded) == ["stop", "concurrency stop", "concurrency start"])
        #expect(harness.body(harness.requests(reloaded)[2])["contentId"] == .string("c2"))
        // The daemon ends the old session after the new load: the new playback goes on.
        #expect(harness.handle(.sessionEnded(sessionID: "s1")).isEmpty)
        #expect(harness.tracker.playback?.options.contentID == "c2")
        _ = harness.handle(.sessionReady(sessionID: "s2"))
        #expect(harness.events(harness.tick(Self.t0)) == ["start"])
        #expect(harness.events(harness.handle(.sessionEnded(sessionID: "s2"))) == ["stop", "concurrency stop"])
    }

    @Test func theBodyCarriesTheContract() {
        var harness = Harness { $0.multiStreamMode = true; $0.trackViewersCount = true }
        _ = harness.load(Harness.options())
        let request = harness.requests(harness.tick(Self.t0))[0]
        #expect(request.url == Harness.endpoint)
        #expect(request.token == "secret")
        #expect(harness.body(request) == [
            "deviceId": .string("box-1"), "contentId": .string("c1"), "catalogType": .string("live"), "primaryContentId": .string("p1"),
            "sessionId": .string("s1"), "event": .string("start"), "state": .string("playing"), "playhead": .number(Double(Self.t0)),
            "bookmark": .null, "multiStream": .bool(true), "trackViewersCount": .bool(true), "ts": .number(Double(harness.now + Harness.wallOffset)),
        ])
    }

    // MARK: Failures

    @Test func failuresInARowStopALivePlaybackAndItsHeartbeat() {
        var harness = Harness()
        let start = harness.now
        _ = harness.load(Harness.options())
        let first = harness.tick(Self.t0)
        #expect(harness.record(.failed(reason: "timed out"), of: first).isEmpty)
        #expect(harness.tracker.playback?.failuresInARow == 1)
        let second = harness.advance(to: start + 60_000)
        let stopped = harness.answer(503, to: second)
        #expect(harness.notifications(stopped) == [.stopPlayback(.heartbeatFailures)])
        #expect(harness.tracker.nextWake == nil)
        #expect(harness.events(harness.advance(to: start + 600_000)).isEmpty)
        #expect(harness.events(harness.handle(.playerEvent(.pause))).isEmpty)
        // The heartbeat stopped: no stop either.
        #expect(harness.events(harness.handle(.sessionEnded(sessionID: "s1"))).isEmpty)
    }

    @Test func anUnexpectedStatusIsAFailureAndTheLimitIsTheSetting() {
        var harness = Harness { $0.maxAllowedFailures = 3 }
        _ = harness.load(Harness.options())
        let first = harness.tick(Self.t0)
        #expect(harness.answer(404, to: first).isEmpty)
        #expect(harness.answer(500, to: first).isEmpty)
        #expect(harness.notifications(harness.record(.failed(reason: "connection failed"), of: first)) == [.stopPlayback(.heartbeatFailures)])
    }

    @Test func aSuccessResetsTheCount() {
        var harness = Harness()
        _ = harness.load(Harness.options())
        let first = harness.tick(Self.t0)
        _ = harness.answer(500, to: first)
        _ = harness.answer(204, to: first)
        #expect(harness.tracker.playback?.failuresInARow == 0)
        #expect(harness.answer(500, to: first).isEmpty)
        #expect(harness.notifications(harness.answer(500, to: first)) == [.stopPlayback(.heartbeatFailures)])
    }

    @Test func aVODPlaybackIsWarnedOnceAStreakAndGoesOn() {
        var harness = Harness()
        let start = harness.now
        _ = harness.load(Harness.options(live: false))
        let first = harness.tick(5_000, timeline: .mediaTime)
        _ = harness.answer(500, to: first)
        #expect(harness.answer(500, to: first) == [.warn(failuresInARow: 2, reason: "HTTP 500")])
        #expect(harness.answer(500, to: first).isEmpty)
        #expect(harness.events(harness.advance(to: start + 60_000)) == ["progress"])
        _ = harness.answer(200, to: first)
        _ = harness.answer(500, to: first)
        #expect(harness.record(.failed(reason: "timed out"), of: first) == [.warn(failuresInARow: 2, reason: "timed out")])
    }

    @Test func theStreamTypeGivenOnLoadDecidesLiveOrVOD() {
        var harness = Harness { $0.maxAllowedFailures = 1 }
        _ = harness.load(Harness.options(), streamType: .vod)
        let first = harness.tick(Self.t0)
        #expect(harness.answer(500, to: first) == [.warn(failuresInARow: 1, reason: "HTTP 500")])
        _ = harness.load(Harness.options(), streamType: .linear, sessionID: "s2")
        let live = harness.tick(5_000, timeline: .mediaTime)
        #expect(harness.notifications(harness.answer(500, to: live)) == [.stopPlayback(.heartbeatFailures)])
    }

    @Test func a401Or403StopsAtOnce() {
        for status in [401, 403] {
            var harness = Harness { $0.maxAllowedFailures = 5 }
            _ = harness.load(Harness.options(live: false))
            let first = harness.tick(5_000, timeline: .mediaTime)
            #expect(harness.notifications(harness.answer(status, to: first)) == [.stopPlayback(.heartbeatRejected)])
            #expect(harness.tracker.nextWake == nil)
        }
    }

    @Test func quietOutcomesCountNeitherWay() {
        var harness = Harness { $0.maxAllowedFailures = 1 }
        _ = harness.load(Harness.options())
        let first = harness.tick(Self.t0)
        #expect(harness.record(.notSent, of: first).isEmpty)
        #expect(harness.tracker.playback?.failuresInARow == 0)
    }

    @Test func anOutcomeOfAnEarlierPlaybackChangesNothing() {
        var harness = Harness { $0.maxAllowedFailures = 1 }
        _ = harness.load(Harness.options())
        let old = harness.tick(Self.t0)
        _ = harness.load(Harness.options(), sessionID: "s2")
        #expect(harness.answer(403, to: old).isEmpty)
        #expect(harness.tracker.playback?.failuresInARow == 0)
    }

    // MARK: Concurrency

    @Test func theConcurrencyEndpointHearsTheStartAndTheStop() {
        var harness = Harness { $0.concurrencyEndpoint = Harness.concurrency }
        let loaded = harness.load(Harness.options())
        #expect(harness.events(loaded) == ["concurrency start"])
        let request = harness.requests(loaded)[0]
        #expect(request.url == Harness.concurrency)
        #expect(harness.body(request) == ["deviceId": .string("box-1"), "contentId": .string("c1"), "event": .string("start")])
        #expect(harness.answer(500, to: loaded).isEmpty)
        _ = harness.tick(Self.t0)
        let ended = harness.handle(.sessionEnded(sessionID: "s1"))
        #expect(harness.events(ended) == ["stop", "concurrency stop"])
        #expect(harness.body(harness.requests(ended)[1])["event"] == .string("stop"))
    }

    @Test func noStreamLeftStopsBeforeAnyHeartbeat() {
        for status in [409, 429] {
            var harness = Harness { $0.concurrencyEndpoint = Harness.concurrency }
            let loaded = harness.load(Harness.options())
            #expect(harness.notifications(harness.answer(status, to: loaded)) == [.stopPlayback(.concurrencyLimit)])
            #expect(harness.tick(Self.t0).isEmpty)
            #expect(harness.handle(.sessionEnded(sessionID: "s1")).isEmpty)
        }
    }

    // MARK: Bookmarks

    @Test func aVODPlaybackRecordingBookmarksSendsAndKeepsTheContentPosition() {
        var harness = Harness { $0.recordBookmark = true }
        let start = harness.now
        _ = harness.load(Harness.options(live: false))
        // 95 s into the stream, 30 s of it stitched ads: the content position is 65 s.
        let first = harness.tick(95_000, timeline: .mediaTime, contentPosition: 65_000)
        #expect(harness.body(harness.requests(first)[0])["bookmark"] == .number(65))
        #expect(harness.body(harness.requests(first)[0])["playhead"] == .number(95))
        #expect(first.contains(.saveBookmark(contentID: "c1", position: 65_000)))
        _ = harness.tick(100_500, timeline: .mediaTime, contentPosition: 70_500)
        #expect(harness.advance(to: start + 60_000).contains(.saveBookmark(contentID: "c1", position: 70_500)))
        #expect(harness.handle(.sessionEnded(sessionID: "s1")).contains(.saveBookmark(contentID: "c1", position: 70_500)))
    }

    @Test func noBookmarkOnLiveOrWithoutTheSetting() {
        var live = Harness { $0.recordBookmark = true }
        _ = live.load(Harness.options())
        let first = live.tick(Self.t0, contentPosition: 1_000)
        #expect(live.body(live.requests(first)[0])["bookmark"] == .null)
        #expect(!first.contains { if case .saveBookmark = $0 { true } else { false } })
        var off = Harness()
        _ = off.load(Harness.options(live: false))
        let vod = off.tick(95_000, timeline: .mediaTime, contentPosition: 65_000)
        #expect(off.body(off.requests(vod)[0])["bookmark"] == .null)
        #expect(vod.count == 1)
    }
}
