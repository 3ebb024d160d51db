import BeaconDomain
import BeaconRuntime
import BeaconSimulator
import Foundation
import Testing

/// The session heartbeat through the real binary, against a loopback heartbeat service that holds
/// every request to the README's contract: the cadence, failures and stops, the service's timeline
/// events, live events from the playback's times, and what reaches the player on the connection
/// that sent its `load` (and on stdout for stdin), while the ad beacons go on unaffected.
@Suite(.timeLimit(.minutes(5))) struct HeartbeatTests {
    static let token = "t0k-e2e"
    /// The live event's times on the ticks' program date time.
    static let t0 = Ads.t0

    /// A daemon with the heartbeat reporter against `heartbeat`, an ad service with one ad break
    /// 2 s after `t0`, and the player's control connection.
    struct Rig {
        let ads: AdService
        let heartbeat: SimulatedHeartbeatService
        let daemon: DaemonProcess
        let player: ControlClient

        var mediaURL: String { "\(ads.baseURL)/live/master.m3u8?sessid=e2e" }

        /// Sends `load` with these heartbeat options (JSON members after `flag`, `token`,
        /// `contentId`, `catalogType`) and waits for its session line.
        func load(_ options: String = "", flag: Bool = true) async throws {
            let heartbeat = #"{"flag": \#(flag), "token": "\#(HeartbeatTests.token)", "contentId": "c1", "catalogType": "live"\#(options)}"#
            try await player.send(line: "load \(mediaURL) {\"heartbeat\": \(heartbeat)}")
            let reply = try await player.lines(1, timeout: .seconds(20))[0]
            #expect(reply.contains("\"sessionId\""), "\(reply)")
        }

        /// Sends the lines on the player's connection.
        func send(_ lines: [String]) async throws {
            for line in lines { try await player.send(line: line) }
        }

        /// The JSON lines the player was told (`{"notification": ...}`), in order.
        var notifications: [String] { player.poll().lines.filter { $0.hasPrefix(#"{"notification""#) } }

        /// Waits for `count` notifications.
        @discardableResult
        func waitForNotifications(_ count: Int, timeout: Duration = .seconds(15)) async throws -> [String] {
            try await eventuallyValue(timeout: timeout, "\(count) notifications (got \(notifications))\n\(daemon.stderrText.suffix(1500))") {
                notifications.count >= count ? notifications : nil
            }
        }

        /// Waits until the service has `count` heartbeats; returns them.
        @discardableResult
        func waitForHeartbeats(_ count: Int, timeout: Duration = .seconds(15)) async throws -> [SimulatedHeartbeatService.Heartbeat] {
            try await eventuallyValue(timeout: timeout, "\(count) heartbeats (got \(heartbeat.heartbeats().count))\n\(daemon.stderrText.suffix(1500))") {
                let heartbeats = heartbeat.heartbeats()
                return heartbeats.count >= count ? heartbeats : nil
            }
        }

        /// The event history's entries.
        func events() async throws -> [EventEntry] {
            let json = try await runBeaconctl(["events", "--json", "--socket", daemon.socketPath])
            #expect(json.status == 0, "\(json.stderr)")
            return try json.stdout.split(separator: "\n").map { try EventEntry.decode(jsonLine: String($0)) }
        }
    }

    /// Runs `body` with a heartbeat service and an ad service serving one ad break 2 s after `t0`, and always stops them.
    static func withServices(_ body: (SimulatedHeartbeatService, AdService) async throws -> Void) async throws {
        let heartbeat = try await SimulatedHeartbeatService.start(token: token)
        do {
            try await withAdService { ads in
                ads.serve(Ads.document([Ads.adBreak(id: "p1", start: t0 + 2_000, adDuration: 4_000, on: ads)], rangeEnd: t0 + 600_000))
                try await body(heartbeat, ads)
            }
        } catch {
            await heartbeat.stop()
            throw error
        }
        await heartbeat.stop()
    }

    static func withRig(
        _ arguments: [String] = [], deviceID: String? = "box-1", _ body: (Rig) async throws -> Void
    ) async throws {
        try await withServices { heartbeat, ads in
            let base = ["--heartbeat-endpoint", heartbeat.endpoint, "--heartbeat-concurrency-endpoint", heartbeat.concurrencyEndpoint]
            try await withDaemon(base + (deviceID.map { ["--heartbeat-device-id", $0] } ?? []) + arguments) { daemon in
                try await daemon.waitUntilListening()
                let player = try await ControlClient.connect(path: daemon.socketPath)[0]
                try await body(Rig(ads: ads, heartbeat: heartbeat, daemon: daemon, player: player))
            }
        }
    }

    /// Live ticks from `t0` to `end`, 250 ms apart on a synthetic clock.
    static func liveTicks(to end: Milliseconds, from start: Milliseconds = t0) -> [String] {
        var feed = TickFeed(from: start)
        feed.play(to: end)
        return feed.lines
    }

    static let stopForFailures = #"{"notification":"stopPlayback","reason":"heartbeatFailures","action":"stop"}"#

    // MARK: Cadence

    @Test func heartbeatsComeAtTheSyncIntervalHoldToTheContractAndAPlaybacksFreqOverridesIt() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.3"]) { rig in
            try await rig.load()
            try await rig.send(Self.liveTicks(to: Self.t0 + 1_000))
            let heartbeats = try await rig.waitForHeartbeats(6)
            #expect(heartbeats.allSatisfy { $0.violations.isEmpty }, "\(heartbeats.map(\.violations))")
            let first = try #require(heartbeats.first)
            #expect(first.event == "start" && first.state == "playing")
            #expect(first.token == Self.token && first.deviceID == "box-1" && first.contentID == "c1" && first.catalogType == "live")
            #expect(first.sessionID == "e2e" && first.multiStream == false && first.trackViewersCount == false)
            #expect(heartbeats.dropFirst().prefix(5).allSatisfy { $0.event == "progress" }, "\(heartbeats.map(\.event))")
            // Epoch milliseconds on program date time.
            #expect(heartbeats[1].playhead.map { $0 >= Double(Self.t0) && $0 <= Double(Self.t0 + 1_000) } == true)
            // Counted on the reporter's own clock (`ts`) from the start: a loaded machine can only make
            // a heartbeat late, and one late heartbeat makes the next one's gap shorter, never the sum.
            let sent = heartbeats.prefix(6).compactMap(\.ts)
            let average = try #require(sent.last.map { ($0 - sent[0]) / Double(sent.count - 1) })
            #expect(average >= 290 && average < 2_000, "\(sent)")

            // A new load with freq 1.2 s: the previous playback stops, the new one keeps its own interval.
            let before = rig.heartbeat.heartbeats().count
            try await rig.load(#", "freq": 1200"#)
            try await rig.send(Self.liveTicks(to: Self.t0 + 500))
            let after = try await rig.waitForHeartbeats(before + 5, timeout: .seconds(20)).dropFirst(before)
            #expect(after.contains { $0.event == "stop" }, "\(after.map(\.event))")
            let restarted = after.drop { $0.event != "start" }
            let progress = restarted.filter { $0.event == "progress" }
            #expect(progress.count >= 2, "\(after.map(\.event))")
            let slower = restarted.filter { $0.event == "start" || $0.event == "progress" }.compactMap(\.ts)
            let slowerAverage = try #require(slower.last.map { ($0 - slower[0]) / Double(slower.count - 1) })
            #expect(slowerAverage >= 1_150, "\(slower)")
            #expect(rig.notifications.isEmpty)

            // The end: a stop heartbeat, and the concurrency endpoint heard each start and stop.
            try await rig.send(["unload"])
            try await eventually("the stop heartbeat") { rig.heartbeat.heartbeats().last?.event == "stop" }
            #expect(rig.heartbeat.heartbeats().last?.state == "stopped")
            try await eventually("the concurrency stops") { rig.heartbeat.concurrencyRequests().map(\.event) == ["start", "stop", "start", "stop"] }
            #expect(rig.heartbeat.concurrencyRequests().allSatisfy { $0.violations.isEmpty && $0.deviceID == "box-1" && $0.contentID == "c1" })
        }
    }

    // MARK: Failures

    @Test func twoFailuresInARowStopALivePlaybackOnBothChannelsAndItsHeartbeat() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2"]) { rig in
            rig.heartbeat.script([.success()])
            rig.heartbeat.answerFromThenOn(.status(503))
            try await rig.load()
            let follower = try ChildProcess(executable: BeaconctlBinary.path, arguments: ["events", "--follow", "--json", "--socket", rig.daemon.socketPath])
            defer { follower.kill() }
            try await rig.send(Self.liveTicks(to: Self.t0 + 1_000))
            let told = try await rig.waitForNotifications(1)
            #expect(told == [Self.stopForFailures])
            let stoppedAt = rig.heartbeat.heartbeats().count
            // The success, then two failures: the third heartbeat is the last but for the stop.
            #expect(stoppedAt >= 3)
            try await eventually("the stop streamed by events --follow") { follower.stdout.text.contains("106201") }
            let entry = try #require(try follower.stdout.lines.map(EventEntry.decode(jsonLine:)).first { $0.code == 106201 })
            #expect(entry.name == "stopPlayback" && entry.severity == .error && entry.details["reason"] == "heartbeatFailures")
            // Five intervals later: no progress heartbeat was sent after the stop.
            try await Task.sleep(for: .seconds(1))
            let later = rig.heartbeat.heartbeats().dropFirst(stoppedAt)
            #expect(!later.contains { $0.event == "progress" }, "\(later.map(\.event))")
            #expect(rig.notifications.count == 1, "given once")
        }
    }

    @Test func failuresOnAVODPlaybackWarnAndTheHeartbeatGoesOn() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2"]) { rig in
            rig.ads.serve(MetadataDocument(dataRange: DataRange(start: 0, end: 120_000), adBreaks: [], timeline: .mediaTime))
            rig.heartbeat.answerFromThenOn(.status(500))
            try await rig.load()
            var feed = TickFeed(from: 0, positions: true)
            feed.play(to: 2_000)
            try await rig.send(feed.lines)
            let failed = try await rig.waitForHeartbeats(6)
            #expect(failed.allSatisfy { $0.violations.isEmpty })
            // Content seconds on media time.
            #expect(failed.last?.playhead == 2.0)
            try await eventually("the warning in the history") { try await rig.events().contains { $0.code == 206202 } }
            let warning = try #require(try await rig.events().first { $0.code == 206202 })
            #expect(warning.name == "heartbeatFailing" && warning.severity == .warning)
            #expect(rig.notifications.isEmpty)
            #expect(try await rig.events().allSatisfy { $0.code != 106201 })
        }
    }

    @Test func aSuccessBetweenFailuresResetsTheCount() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2"]) { rig in
            rig.heartbeat.script([.success(), .status(500), .success(), .dropConnection, .success(), .status(502), .success()])
            try await rig.load()
            try await rig.send(Self.liveTicks(to: Self.t0 + 1_000))
            try await rig.waitForHeartbeats(8)
            #expect(rig.notifications.isEmpty)
            #expect(try await rig.events().allSatisfy { $0.code != 106201 })
        }
    }

    @Test func a403StopsThePlaybackAtOnce() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2"]) { rig in
            rig.heartbeat.script([.status(403)])
            try await rig.load()
            try await rig.send(Self.liveTicks(to: Self.t0 + 1_000))
            #expect(try await rig.waitForNotifications(1) == [#"{"notification":"stopPlayback","reason":"heartbeatRejected","action":"stop"}"#])
            try await Task.sleep(for: .seconds(1))
            #expect(!rig.heartbeat.heartbeats().contains { $0.event == "progress" })
        }
    }

    @Test func noStreamLeftAtTheConcurrencyEndpointStopsThePlaybackAtLoad() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2"]) { rig in
            rig.heartbeat.answerConcurrency(409)
            try await rig.load()
            #expect(try await rig.waitForNotifications(1) == [#"{"notification":"stopPlayback","reason":"concurrencyLimit","action":"stop"}"#])
            #expect(rig.heartbeat.concurrencyRequests().first?.event == "start")
            let entry = try #require(try await rig.events().first { $0.code == 106201 })
            #expect(entry.details["reason"] == "concurrencyLimit")
        }
    }

    // MARK: The service's events and the live event's times

    @Test func aBlackoutDENYFromTheServiceTellsThePlayerToPlayTheSlate() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2"]) { rig in
            rig.heartbeat.script([.success(events: [.blackout(action: "DENY", blackoutURL: "http://127.0.0.1:9/slate.m3u8")])])
            try await rig.load()
            try await rig.send(Self.liveTicks(to: Self.t0 + 1_000))
            #expect(try await rig.waitForNotifications(1) == [
                #"{"notification":"blackout","action":"DENY","blackoutUrl":"http://127.0.0.1:9/slate.m3u8","suggestedAction":"playSlate"}"#
            ])
            let entry = try #require(try await rig.events().first { $0.code == 206201 })
            #expect(entry.name == "blackout" && entry.severity == .warning && entry.details["action"] == "DENY")
        }
    }

    @Test func theEndOfARegularLiveEventStopsThePlayback() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.5"]) { rig in
            try await rig.load(#", "liveEndTime": \#(Self.t0 + 2_000), "liveEventType": "regular""#)
            try await rig.send(Self.liveTicks(to: Self.t0 + 1_500))
            try await Task.sleep(for: .milliseconds(500))
            #expect(rig.notifications.isEmpty, "not before the end")
            try await rig.send(Self.liveTicks(to: Self.t0 + 3_000, from: Self.t0 + 1_750))
            #expect(try await rig.waitForNotifications(1) == [#"{"notification":"stopPlayback","reason":"liveEventEnd","action":"stop"}"#])
        }
    }

    @Test func theEndOfAnOverflowEventPlaysThePostSlateThenExits() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.5", "--heartbeat-post-slate-duration", "1"]) { rig in
            try await rig.load(#", "liveEndTime": \#(Self.t0 + 1_000), "liveEventType": "overflow", "overflowMode": "during""#)
            let sentAt = Int64(Date().timeIntervalSince1970 * 1000)
            try await rig.send(Self.liveTicks(to: Self.t0 + 2_000))
            #expect(try await rig.waitForNotifications(1) == [#"{"notification":"liveEventEnd","suggestedAction":"playPostSlate"}"#])
            let told = try await rig.waitForNotifications(2)
            #expect(told.last == #"{"notification":"overflowEventEnd","suggestedAction":"exit"}"#)
            // The post-slate counts from the tick that passed the end, sent after `sentAt`; the
            // history's time of the exit is when the reporter told it (the test may notice it late).
            let entries = try await rig.events()
            #expect(entries.contains { $0.code == 306202 })
            let exited = try #require(entries.first { $0.code == 306203 })
            #expect(exited.time - sentAt >= 950, "the post-slate plays its duration first")
        }
    }

    @Test func anOverflowEventWithoutPostSlateExitsAtItsEnd() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.5"]) { rig in
            try await rig.load(#", "liveEndTime": \#(Self.t0 + 1_000), "liveEventType": "overflow", "overflowMode": "after""#)
            try await rig.send(Self.liveTicks(to: Self.t0 + 2_000))
            #expect(try await rig.waitForNotifications(2) == [
                #"{"notification":"liveEventEnd","suggestedAction":"playPostSlate"}"#, #"{"notification":"overflowEventEnd","suggestedAction":"exit"}"#,
            ])
        }
    }

    @Test func theMainProgrammesStartInOverflowModeBeforeSwitchesToItOnce() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.5"]) { rig in
            try await rig.load(#", "liveStartTime": \#(Self.t0 + 1_000), "liveEventType": "overflow", "overflowMode": "before""#)
            try await rig.send(Self.liveTicks(to: Self.t0 + 3_000))
            #expect(try await rig.waitForNotifications(1) == [#"{"notification":"liveProgramStart","suggestedAction":"switchToMain"}"#])
            try await Task.sleep(for: .milliseconds(500))
            #expect(rig.notifications.count == 1, "given once")
        }
    }

    // MARK: Bookmarks

    @Test func aVODBookmarkLeavesTheStitchedAdsOutAndIsTheResumePositionAfterARestart() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let arguments = ["--heartbeat-sync-interval", "0.2", "--heartbeat-record-bookmark", "--state-dir", state.path]
        try await Self.withRig(arguments) { rig in
            // A 12 s pre-roll stitched at 0: 20 s into the stream is 8 s into the content.
            rig.ads.serve(
                MetadataDocument(
                    dataRange: DataRange(start: 0, end: 120_000), adBreaks: [Ads.adBreak(id: "pre", start: 0, on: rig.ads)], timeline: .mediaTime))
            try await rig.load()
            // Positions count as content only once the metadata put the session on media time.
            try await rig.daemon.waitForStatus("the pre-roll known") { $0.adBreaks.count == 1 }
            var feed = TickFeed(from: 0, positions: true)
            feed.play(to: 20_000)
            try await rig.send(feed.lines)
            try await eventually(timeout: .seconds(30), "a bookmark of 8 s; bookmarks sent: \(rig.heartbeat.heartbeats().map(\.bookmark))") {
                rig.heartbeat.heartbeats().contains { $0.bookmark == 8.0 }
            }
            try await rig.send(["unload"])
            try await eventually("the stop heartbeat") { rig.heartbeat.heartbeats().last?.event == "stop" }
        }
        try await Self.withRig(arguments) { rig in
            try await rig.player.send(line: #"load \#(rig.mediaURL) {"heartbeat": {"flag": true, "token": "\#(Self.token)", "contentId": "c1"}}"#)
            let reply = try await rig.player.lines(1, timeout: .seconds(20))[0]
            #expect(reply.contains(#""resumePosition":8"#), "\(reply)")
        }
    }

    // MARK: No heartbeat

    @Test func aPlaybackWithoutTheFlagHasNoHeartbeat() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2"]) { rig in
            try await rig.load(flag: false)
            try await rig.send(Self.liveTicks(to: Self.t0 + 1_000))
            try await Task.sleep(for: .seconds(1))
            #expect(rig.heartbeat.heartbeats().isEmpty)
            #expect(rig.heartbeat.concurrencyRequests().isEmpty)
        }
    }

    @Test func quietComputesButSendsNoHeartbeat() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2", "--quiet"]) { rig in
            try await rig.load()
            try await rig.send(Self.liveTicks(to: Self.t0 + 1_000))
            try await Task.sleep(for: .seconds(1))
            #expect(rig.heartbeat.heartbeats().isEmpty)
            #expect(rig.ads.beacons.isEmpty)
        }
    }

    @Test func disablingTheHeartbeatReporterStopsItsRequests() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2"]) { rig in
            try await rig.load()
            try await rig.send(Self.liveTicks(to: Self.t0 + 1_000))
            try await rig.waitForHeartbeats(2)
            _ = try await rig.daemon.request("reporter disable heartbeat")
            try await Task.sleep(for: .milliseconds(400))
            let disabledAt = rig.heartbeat.heartbeats().count
            try await Task.sleep(for: .seconds(1))
            #expect(rig.heartbeat.heartbeats().count == disabledAt)
        }
    }

    // MARK: Other channels and settings

    @Test func aPlaybackLoadedOnStdinHearsItsNotificationsOnStdout() async throws {
        try await Self.withServices { heartbeat, ads in
            heartbeat.script([.status(403)])
            let arguments = ["--stdin", "--heartbeat-endpoint", heartbeat.endpoint, "--heartbeat-device-id", "box-1"]
            try await withDaemon(arguments) { daemon in
                try await daemon.waitUntilListening()
                let options = #"{"heartbeat": {"flag": true, "token": "\#(Self.token)"}}"#
                daemon.send(["load \(ads.baseURL)/live/master.m3u8?sessid=e2e \(options)"] + Self.liveTicks(to: Self.t0 + 500))
                try await eventually("the stop on stdout\n\(daemon.stderrText.suffix(1500))") {
                    daemon.stdoutLines.contains(#"{"notification":"stopPlayback","reason":"heartbeatRejected","action":"stop"}"#)
                }
                #expect(daemon.stdoutLines.first?.contains("\"sessionId\"") == true, "the session line first")
            }
        }
    }

    @Test func multiStreamModeAndTheDefaultDeviceIDAreSent() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2", "--heartbeat-multi-stream-mode"], deviceID: nil) { rig in
            try await rig.load()
            try await rig.send(Self.liveTicks(to: Self.t0 + 500))
            let first = try #require(try await rig.waitForHeartbeats(1).first)
            #expect(first.multiStream == true)
            let machineID = try #require(MachineID.text())
            #expect(first.deviceID == MachineAppSpecificID.derived(fromMachineID: machineID, application: MachineAppSpecificID.heartbeat))
            #expect(first.deviceID?.contains(machineID.prefix(32)) == false)
        }
    }

    /// The derived id is systemd's own application-specific id: `systemd-id128` prints the same.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-id128") && MachineID.text() != nil))
    func theDefaultDeviceIDIsSystemdsApplicationSpecificID() async throws {
        let systemd = try await runProgram("/usr/bin/systemd-id128", ["machine-id", "--app-specific=\(MachineAppSpecificID.applicationIDHex(MachineAppSpecificID.heartbeat))"])
        #expect(systemd.status == 0, "\(systemd.stderr)")
        let machineID = try #require(MachineID.text())
        let derived = try #require(MachineAppSpecificID.derived(fromMachineID: machineID, application: MachineAppSpecificID.heartbeat))
        #expect(systemd.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == derived)
    }

    // MARK: The ad beacons

    @Test func theAdBeaconsGoOnWhileTheHeartbeatServiceIsSlowOrDown() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2", "--heartbeat-max-allowed-failures", "1000"]) { rig in
            rig.heartbeat.answerFromThenOn(.slow(.seconds(30), .success()))
            try await rig.load()
            try await rig.send(Self.liveTicks(to: Self.t0 + 8_000))
            try await rig.daemon.waitForStatus("the ad break's beacons delivered") { $0.state(ofAd: "p1-a1", .complete) == .done }
            await rig.heartbeat.refuseConnections()
            try await rig.send(Self.liveTicks(to: Self.t0 + 9_000, from: Self.t0 + 8_250))
            expectEachPlaybackEventOnce(rig.ads, ads: ["p1-a1"])
        }
    }
}
