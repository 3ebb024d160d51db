import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Testing

/// The MediaTailor dialect with the real binary against the simulated MediaTailor service.
@Suite(.timeLimit(.minutes(5))) struct MediaTailorTests {
    typealias Service = SimulatedMediaTailorService

    /// Three avails, one per tracking page, placed on program date time from `Ads.t0`.
    static let avails = [
        Service.Avail(id: "m1", start: 10_000, adCount: 1), Service.Avail(id: "m2", start: 40_000, adCount: 2),
        Service.Avail(id: "m3", start: 70_000, adCount: 1),
    ]

    func withService(
        _ avails: [Service.Avail] = avails, behavior: Service.Behavior = Service.Behavior(), _ body: (Service) async throws -> Void
    ) async throws {
        let service = try await Service.start(avails: avails, programDateTimeStart: Ads.t0, behavior: behavior)
        do {
            try await body(service)
        } catch {
            await service.stop()
            throw error
        }
        await service.stop()
    }

    static func arguments(_ service: Service, _ extra: [String] = []) -> [String] {
        ["--media-url", service.sessionInitURL, "--metadata-interval", "0.2", "--stdin"] + extra
    }

    /// Every avail's pages read and merged, then ticks in program date time over all of them.
    static func waitForAllAvails(_ daemon: DaemonProcess, count: Int = avails.count) async throws -> StatusReport {
        try await daemon.waitForStatus(timeout: .seconds(20), "every avail of every page") { report in
            report.adBreaks.count == count && report.session?.dialect == .mediatailor
        }
    }

    /// Whether each playback event of each ad of `avails`, and each avail's breakStart and breakEnd,
    /// reached the sink exactly `times` times.
    static func everyBeacon(_ service: Service, _ avails: [Service.Avail] = avails, times: Int = 1) -> Bool {
        avails.allSatisfy { avail in
            [TrackingEventType.breakStart, .breakEnd].allSatisfy { service.count(avail.id, $0) == times }
                && (0..<avail.adCount).allSatisfy { index in
                    StandardAd.playbackTypes.allSatisfy { service.count(avail.adID(index), $0) == times }
                }
        }
    }

    @Test func liveWithPagingAndProgramDateTimeTicks() async throws {
        try await withService { service in
            try await withDaemon(Self.arguments(service)) { daemon in
                let report = try await Self.waitForAllAvails(daemon)
                // On media time, program date time given by the avails' availProgramDateTime.
                #expect(report.adBreaks.map(\.startTime) == Self.avails.map(\.start))
                #expect(report.timeline == .mediaTime)
                #expect(report.adBreaks[0].ads.map(\.id) == [MediaTailorDocument.adBreakTrackingAdID, "m1-ad1"])
                #expect(report.session?.sessionID == "sim-1")
                let queries = service.trackingQueries()
                #expect(queries.contains("nextToken=page-1") && queries.contains("nextToken=page-2"), "\(queries)")
                // Polling goes on from the last token, never from the first page again.
                try await eventually("a poll from the last token") { service.trackingQueries().filter { $0 == "nextToken=page-3" }.count >= 2 }
                #expect(service.trackingQueries().filter(\.isEmpty).count == 1)

                var feed = TickFeed(from: Ads.t0)
                feed.play(to: Ads.t0 + 90_000, step: 500)
                daemon.send(feed.takeLines())
                try await eventually(timeout: .seconds(30), "each beacon of each avail once") { Self.everyBeacon(service) }
                // User actions never happened: nothing sent for them.
                #expect(service.receivedBeacons().allSatisfy { !$0.path.hasSuffix("/pause") && !$0.path.hasSuffix("/mute") })
                #expect(service.receivedBeacons().count == 3 * 2 + 4 * StandardAd.playbackTypes.count)
                daemon.terminate()
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }

    /// An avail added later is found from the last token, and its ad-break events fire at its start and end.
    @Test func anAvailAddedLaterIsFoundFromTheLastToken() async throws {
        try await withService(Array(Self.avails.prefix(1))) { service in
            try await withDaemon(Self.arguments(service)) { daemon in
                _ = try await Self.waitForAllAvails(daemon, count: 1)
                service.add(Self.avails[1])
                _ = try await Self.waitForAllAvails(daemon, count: 2)
                var feed = TickFeed(from: Ads.t0 + 39_000)
                feed.play(to: Ads.t0 + 40_500)
                daemon.send(feed.takeLines())
                try await eventually("breakStart of the added avail") { service.count("m2", .breakStart) == 1 }
                #expect(service.count("m2", .breakEnd) == 0)
                feed.play(to: Ads.t0 + 57_500)
                daemon.send(feed.takeLines())
                try await eventually("breakEnd at the avail's end") { service.count("m2", .breakEnd) == 1 }
                #expect(service.count("m1", .breakStart) == 0)
            }
        }
    }

    /// Init failures are retried with backoff; each POST asks for client-side reporting and passes
    /// the player's adsParams through.
    @Test func initFailuresRetriedAndAdsParamsPassedThrough() async throws {
        var behavior = Service.Behavior()
        behavior.initFailures = 2
        try await withService(behavior: behavior) { service in
            try await withDaemon(["--metadata-interval", "0.2"]) { daemon in
                try await daemon.waitUntilListening()
                let reply = try await daemon.request(#"load \#(service.sessionInitURL) {"adsParams": {"deviceType": "tv", "uid": "a b"}}"#)
                #expect(reply.contains("HTTP 500"), "\(reply)")
                #expect(reply.contains("the daemon keeps retrying"), "\(reply)")
                let ready = try await Self.waitForAllAvails(daemon)
                #expect(ready.initFailures == 0)
                // The backoff may be a few milliseconds: the log, not a status poll, shows each failure.
                let failures = daemon.stderrText.components(separatedBy: "session init failed, retrying").count - 1
                #expect(failures == 2, "\(daemon.stderrText.suffix(3000))")
                #expect(daemon.stderrText.contains("reason=\"MediaTailor POST: HTTP 500\""), "\(daemon.stderrText.suffix(3000))")
                let bodies = service.initBodies().map { try? JSONDecoder().decode(InitBody.self, from: Data($0.utf8)) }
                #expect(bodies.count == 3)
                #expect(bodies.allSatisfy { $0 == InitBody(reportingMode: "client", adsParams: ["deviceType": "tv", "uid": "a b"]) }, "\(bodies)")
            }
        }
    }

    struct InitBody: Decodable, Equatable {
        var reportingMode: String
        var adsParams: [String: String]?
    }

    /// The reliability rules hold for a MediaTailor session: beacons failing in an outage are retried
    /// and each reaches the sink once when it ends.
    @Test func anOutageIsRiddenOutWithRetries() async throws {
        try await withService(Array(Self.avails.prefix(1))) { service in
            try await withDaemon(Self.arguments(service)) { daemon in
                _ = try await Self.waitForAllAvails(daemon, count: 1)
                service.change { $0.outage = true }
                var feed = TickFeed(from: Ads.t0 + 9_000)
                feed.play(to: Ads.t0 + 19_000)
                daemon.send(feed.takeLines())
                try await daemon.waitForStatus(timeout: .seconds(20), "beacons failing and retried") { $0.counters.beaconsRetried >= 2 }
                #expect(service.receivedBeacons().isEmpty)
                service.change { $0.outage = false }
                try await eventually(timeout: .seconds(60), "every beacon once after the outage") {
                    Self.everyBeacon(service, Array(Self.avails.prefix(1)))
                }
            }
        }
    }

    /// After kill -9 the session resumes from the journal, MediaTailor still, without a new init,
    /// and what was sent before is not sent again.
    @Test func afterKillNineTheSessionResumesWithoutResending() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let environment = ["STATE_DIRECTORY": state.path]
        let first = Array(Self.avails.prefix(2))
        try await withService(first) { service in
            var feed = TickFeed(from: Ads.t0 + 9_000)
            try await withDaemon(Self.arguments(service), environment: environment) { daemon in
                _ = try await Self.waitForAllAvails(daemon, count: 2)
                feed.play(to: Ads.t0 + 19_000)
                daemon.send(feed.takeLines())
                try await eventually(timeout: .seconds(20), "the first avail's beacons") { Self.everyBeacon(service, [first[0]]) }
                // A reporting state reaches status once the journal wrote it: the counters come sooner,
                // and a kill between the two would rightly resend what was in flight.
                let reported = Set(StandardAd.playbackTypes + [.breakStart, .breakEnd])
                try await daemon.waitForStatus("the journal saved") { report in
                    let events = report.adBreaks.first { $0.id == first[0].id }?.ads.flatMap(\.trackingEvents).filter { reported.contains($0.event) }
                    return events?.count == reported.count && events?.allSatisfy { $0.reportingState == .done } == true
                }
                daemon.kill()
            }
            try await withDaemon(Self.arguments(service), environment: environment) { daemon in
                let report = try await daemon.waitForStatus("resumed") { $0.session?.dialect == .mediatailor && $0.adBreaks.count == 2 }
                #expect(report.session?.sessionID == "sim-1")
                feed.jump(to: Ads.t0 + 39_000)
                feed.play(to: Ads.t0 + 57_500)
                daemon.send(feed.takeLines())
                try await eventually(timeout: .seconds(30), "the second avail's beacons") { Self.everyBeacon(service, [first[1]]) }
                #expect(Self.everyBeacon(service, first))
                #expect(service.initBodies().count == 1)
            }
        }
    }

    /// One refresh follows at most 20 pages; the next refresh goes on from the last token.
    @Test func oneRefreshFollowsAtMostTwentyPages() async throws {
        let many = (0..<25).map { Service.Avail(id: "n\($0)", start: Milliseconds($0) * 20_000 + 10_000) }
        try await withService(many) { service in
            try await withDaemon(["--media-url", service.sessionInitURL, "--metadata-interval", "600"]) { daemon in
                _ = try await Self.waitForAllAvails(daemon, count: 20)
                try await Task.sleep(for: .seconds(1))
                #expect(try await daemon.status().adBreaks.count == 20)
                #expect(service.trackingQueries() == [""] + (1..<20).map { "nextToken=page-\($0)" })
            }
        }
    }

    /// A VOD: no program date time, position ticks; pre-, mid- and post-roll with their ad-break
    /// events; a seek over the mid-roll fires nothing of it; a pause inside the post-roll is reported.
    @Test func vodWithPositionTicks() async throws {
        let vod = [
            Service.Avail(id: "pre", start: 0), Service.Avail(id: "mid", start: 60_000, adCount: 2), Service.Avail(id: "post", start: 120_000),
        ]
        var behavior = Service.Behavior()
        behavior.programDateTimes = false
        try await withService(vod, behavior: behavior) { service in
            try await withDaemon(Self.arguments(service)) { daemon in
                let report = try await Self.waitForAllAvails(daemon, count: 3)
                #expect(report.timeline == .mediaTime)
                var feed = TickFeed(from: 0, positions: true)
                feed.play(to: 20_000)
                feed.line("seek-start")
                feed.jump(to: 90_000)
                feed.line("seek-end")
                feed.play(to: 124_000)
                feed.line("pause")
                feed.wait(3_000)
                feed.line("play")
                feed.play(to: 130_000)
                daemon.send(feed.lines)
                try await eventually(timeout: .seconds(30), "the pre- and post-roll beacons") { Self.everyBeacon(service, [vod[0], vod[2]]) }
                let done = try await daemon.waitForStatus("every tick handled") { $0.counters.ticks == feed.tickCount }
                // The pre-, mid- and post-roll lie before the position: 8 + 16 + 8 s.
                let content: Milliseconds = 130_000 - 32_000
                #expect(done.contentPosition == content)
                #expect(service.receivedBeacons().filter { $0.path.hasPrefix("/beacon/mid") }.isEmpty, "\(service.receivedBeacons().map(\.path))")
                #expect(service.count("post-ad1", .pause) == 1 && service.count("post-ad1", .resume) == 1)
                #expect(service.count("pre-ad1", .pause) == 0)
            }
        }
    }
}
