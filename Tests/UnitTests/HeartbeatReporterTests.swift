import Foundation
import Logging
import Synchronization
import Testing

@testable import BeaconDomain
@testable import BeaconRuntime
@testable import BeaconTesting

/// The heartbeat reporter's task in virtual time: it sends what the tracker decides on its own
/// client, waits on the time source, tells the hub, keeps bookmarks, and reports its status.
@Suite(.timeLimit(.minutes(2))) struct HeartbeatReporterTests {
    static let endpoint = HeartbeatHarness.endpoint
    static let t0: Milliseconds = 1_767_225_600_000

    /// A reporter on a scripted client and manual time, running while `body` runs.
    struct Running {
        let reporter: HeartbeatReporter
        let client: ScriptedHTTPClient
        let time: ManualTime
        let bookmarks: InMemoryBookmarkStore
        let published: Recorder<DaemonNotification>

        func send(_ notification: DaemonNotification) { reporter.receive(notification) }

        func load(_ options: HeartbeatOptions, streamType: ContentInformation.StreamType? = nil) {
            send(.playbackLoaded(mediaURL: "http://m", options: LoadOptions(content: ContentInformation(streamType: streamType), heartbeat: options)))
            send(.sessionReady(SessionEndpoints(mediaURL: "http://m", manifestURL: "http://m/v", trackingURL: "http://m/t", sessionID: "s1")))
        }

        func tick(_ playhead: Milliseconds, timeline: Timeline = .programDateTime, contentPosition: Milliseconds? = nil) {
            send(.playheadObserved(PlayheadObservation(tick: PlayheadTick(playhead: playhead, timeline: timeline), contentPosition: contentPosition)))
        }

        /// The `event` of each heartbeat sent so far.
        var events: [String] { Self.events(in: client.sent.all) }

        static func events(in requests: [HTTPClientRequest]) -> [String] {
            requests.compactMap { request in
                guard case .object(let body)? = try? JSONDecoder().decode(JSONValue.self, from: Data(request.body)),
                    case .string(let event)? = body["event"] else { return nil }
                return request.url == endpoint ? event : "concurrency \(event)"
            }
        }

        var notifications: [PlayerNotification] { Self.notifications(in: published.all) }

        static func notifications(in published: [DaemonNotification]) -> [PlayerNotification] {
            published.compactMap { if case .playerNotified(let notification) = $0 { notification } else { nil } }
        }

        /// Returns once the heartbeats sent so far are `expected`, as the service receives them.
        func waitForEvents(_ expected: [String]) async throws {
            try await client.sent.wait { Self.events(in: $0) == expected }
        }

        /// Returns once the player was told `expected`.
        func waitForNotifications(_ expected: [PlayerNotification]) async throws {
            try await published.wait { Self.notifications(in: $0) == expected }
        }

        /// Waits until the reporter sleeps until `instant`, then moves time there.
        func advance(to instant: Milliseconds) async throws {
            try await time.waitForSleeper(until: instant)
            time.advance(to: instant)
        }
    }

    /// Returns the reporter once it ended: what it sent then is all it ever sends.
    @discardableResult
    static func running(
        _ script: [String: [ScriptedHTTPClient.Answer]], quiet: Bool = false, _ configure: (inout HeartbeatSettings) -> Void = { _ in },
        _ body: (Running) async throws -> Void
    ) async throws -> Running {
        var settings = HeartbeatSettings()
        settings.endpoint = endpoint
        settings.concurrencyEndpoint = nil
        settings.headers = ["X-Tenant": "t1"]
        configure(&settings)
        let client = ScriptedHTTPClient(script)
        let time = ManualTime()
        let bookmarks = InMemoryBookmarkStore()
        let published = Recorder<DaemonNotification>()
        let reporter = HeartbeatReporter(
            settings: settings, deviceID: "box-1", client: client, time: time.source, random: SeededGenerator(seed: 1), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            drainTimeout: .seconds(5), bookmarks: bookmarks, quiet: quiet, publish: { published.append($0) })
        let running = Running(reporter: reporter, client: client, time: time, bookmarks: bookmarks, published: published)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await reporter.run() }
            defer { group.cancelAll() }
            try await body(running)
            reporter.finish()
            try await group.waitForAll()
        }
        return running
    }

    @Test func itSendsAtTheCadenceWithTheTokenAndTheHeaders() async throws {
        try await Self.running([Self.endpoint: [.status(200)]]) { running in
            let start = running.time.now
            running.load(HeartbeatOptions(flag: true, token: "secret", freq: 10_000, contentID: "c1"))
            running.tick(Self.t0)
            try await running.waitForEvents(["start"])
            let first = running.client.sent.all[0]
            #expect(first.headers.map(\.name) == ["Content-Type", "X-Heartbeat-Token", "X-Tenant"])
            #expect(first.headers.first { $0.name == "X-Heartbeat-Token" }?.value == "secret")
            try await running.advance(to: start + 10_000)
            try await running.waitForEvents(["start", "progress"])
            try await running.advance(to: start + 20_000)
            try await running.waitForEvents(["start", "progress", "progress"])
            // The answer reaches the reporter after the service has the request.
            try await eventually("the third answer counted") { await running.reporter.status().counters["sent"] == 3 }
            let status = await running.reporter.status()
            #expect(status.state == "reporting")
            #expect(status.lastRequest == "progress \(Self.endpoint)")
            #expect(status.lastAnswer == "HTTP 200")
            #expect(status.counters["sent"] == 3)
            #expect(status.details["nextDue"] == UTCTime.format(start + 30_000 + running.time.wallNow - running.time.now))
            running.send(.sessionEnded(sessionID: "s1"))
            try await running.client.sent.wait { Running.events(in: $0).last == "stop" }
        }
    }

    @Test func twoFailuresStopALivePlaybackAndTellTheHub() async throws {
        let ended = try await Self.running([Self.endpoint: [.status(503), .error(.timedOut), .status(200)]]) { running in
            let start = running.time.now
            running.load(HeartbeatOptions(flag: true, contentID: "c1"))
            running.tick(Self.t0)
            try await running.waitForEvents(["start"])
            try await running.advance(to: start + 60_000)
            try await running.waitForNotifications([.stopPlayback(.heartbeatFailures)])
            let status = await running.reporter.status()
            #expect(status.state == "stopped")
            #expect(status.failuresInARow == 2)
            #expect(status.lastAnswer == "timed out")
            #expect(status.details["lastNotification"] == PlayerNotification.stopPlayback(.heartbeatFailures).line)
            #expect(status.details["nextDue"] == nil)
            running.time.advance(to: start + 600_000)
            running.send(.sessionEnded(sessionID: "s1"))
        }
        #expect(ended.events == ["start", "progress"], "a stopped playback sends nothing more, its end included")
    }

    @Test func aVODPlaybackIsWarnedAboutAndGoesOn() async throws {
        try await Self.running([Self.endpoint: [.status(500), .status(500), .status(200)]]) { running in
            let start = running.time.now
            running.load(HeartbeatOptions(flag: true, contentID: "c1"), streamType: .vod)
            running.tick(5_000, timeline: .mediaTime)
            try await running.advance(to: start + 60_000)
            try await running.published.wait { $0.contains { if case .heartbeatFailing(2, "HTTP 500") = $0 { true } else { false } } }
            try await running.advance(to: start + 120_000)
            try await running.waitForEvents(["start", "progress", "progress"])
            try await eventually("its success recorded") { await running.reporter.status().failuresInARow == 0 }
            #expect(running.notifications.isEmpty)
        }
    }

    @Test func theServicesAnswerIsReadAndItsIntervalKept() async throws {
        let answer = #"{"syncInterval": 5000, "events": [{"event": "blackout", "action": "DENY", "blackoutUrl": "https://s.example/b"}]}"#
        try await Self.running([Self.endpoint: [.body(Array(answer.utf8))]]) { running in
            let start = running.time.now
            running.load(HeartbeatOptions(flag: true, contentID: "c1"))
            running.tick(Self.t0)
            try await running.waitForNotifications([.blackout(.deny, blackoutURL: "https://s.example/b")])
            try await running.advance(to: start + 5_000)
            try await running.waitForEvents(["start", "progress"])
        }
    }

    @Test func noStreamLeftStopsAtLoad() async throws {
        let concurrency = HeartbeatHarness.concurrency
        let ended = try await Self.running([concurrency: [.status(409)]], { $0.concurrencyEndpoint = concurrency }) { running in
            running.load(HeartbeatOptions(flag: true, contentID: "c1"))
            try await running.waitForNotifications([.stopPlayback(.concurrencyLimit)])
            running.tick(Self.t0)
            running.send(.sessionEnded(sessionID: "s1"))
        }
        #expect(ended.events == ["concurrency start"], "no heartbeat for a playback refused a stream")
    }

    @Test func quietSendsNothingAndCountsItNotSent() async throws {
        try await Self.running([Self.endpoint: [.status(200)]], quiet: true) { running in
            running.load(HeartbeatOptions(flag: true, contentID: "c1", liveEndTime: Self.t0, liveEventType: .regular))
            running.tick(Self.t0)
            // Decided from the playhead, not the service: the player is told even when quiet.
            try await running.waitForNotifications([.stopPlayback(.liveEventEnd)])
            #expect(running.client.sent.count == 0)
            #expect(await running.reporter.status().counters["notSent"] == 1)
        }
    }

    @Test func disabledItSendsAndTellsNothingAndKeepsTrack() async throws {
        try await Self.running([Self.endpoint: [.status(200)]]) { running in
            let start = running.time.now
            await running.reporter.setEnabled(false)
            running.load(HeartbeatOptions(flag: true, contentID: "c1", liveEndTime: Self.t0, liveEventType: .regular))
            running.tick(Self.t0)
            try await running.time.waitForSleeper(until: start + 60_000)
            #expect(running.client.sent.count == 0)
            #expect(running.notifications.isEmpty)
            let status = await running.reporter.status()
            #expect(!status.enabled)
            #expect(status.state == "reporting")
            await running.reporter.setEnabled(true)
            try await running.advance(to: start + 60_000)
            try await running.waitForEvents(["progress"])
        }
    }

    @Test func aVODPlaybackKeepsItsBookmark() async throws {
        try await Self.running([Self.endpoint: [.status(200)]], { $0.recordBookmark = true }) { running in
            running.load(HeartbeatOptions(flag: true, contentID: "c1"), streamType: .vod)
            running.tick(95_000, timeline: .mediaTime, contentPosition: 65_000)
            try await running.bookmarks.wait(untilSaved: ["c1": 65_000])
            running.tick(100_000, timeline: .mediaTime, contentPosition: 70_000)
            running.send(.sessionEnded(sessionID: "s1"))
            try await running.bookmarks.wait(untilSaved: ["c1": 70_000])
            #expect(running.bookmarks.resumePosition(for: HeartbeatOptions(flag: true, contentID: "c1")) == 70)
            #expect(running.bookmarks.resumePosition(for: HeartbeatOptions(flag: true, contentID: "c2")) == nil)
        }
    }

    @Test func theStopAtTheEndGoesOutWithinTheDrainTimeout() async throws {
        try await Self.running([Self.endpoint: [.status(200), .held(200)]]) { running in
            running.load(HeartbeatOptions(flag: true, contentID: "c1"))
            running.tick(Self.t0)
            try await running.waitForEvents(["start"])
            // The daemon finishes without ending the session: the reporter ends the playback itself,
            // and gives up on the held stop when the drain timeout passes.
            running.reporter.finish()
            try await running.waitForEvents(["start", "stop"])
            try await running.advance(to: running.time.now + 5_000)
        }
    }

    @Test func whatWaitsIsBoundedAndTheRestCounted() async throws {
        try await Self.running([Self.endpoint: [.held(200), .status(200)]]) { running in
            running.load(HeartbeatOptions(flag: true, contentID: "c1"))
            running.tick(Self.t0)
            try await running.waitForEvents(["start"])
            for offset in 0..<Milliseconds(HeartbeatReporter.maxWaiting + 10) { running.tick(Self.t0 + offset) }
            running.client.release()
            try await running.time.waitForSleeper(until: running.time.now + 60_000)
            #expect(await running.reporter.status().counters["dropped"] == 10)
        }
    }
}
