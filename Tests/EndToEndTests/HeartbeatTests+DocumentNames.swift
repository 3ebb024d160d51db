import BeaconDomain
import BeaconRuntime
import BeaconSimulator
import Foundation
import Testing

/// What an integrator forwards from Quickplay's playback authorization, under its own names.
extension HeartbeatTests {
    @Test func aHeartbeatLoadedUnderQuickplaysNamesRunsAsUnderOurs() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "5"]) { rig in
            let heartbeat = #"{"heartbeatFlag": true, "heartbeatToken": "\#(Self.token)", "heartbeatFreq": 300, "contentId": "c1", "catalogType": "live"}"#
            try await rig.player.send(line: "load \(rig.mediaURL) {\"heartbeat\": \(heartbeat)}")
            #expect(try await rig.player.lines(1, timeout: .seconds(20))[0].contains("\"sessionId\""))
            try await rig.send(Self.liveTicks(to: Self.t0 + 1_000))
            let heartbeats = try await rig.waitForHeartbeats(4)
            #expect(heartbeats.allSatisfy { $0.violations.isEmpty }, "\(heartbeats.map(\.violations))")
            #expect(heartbeats[0].event == "start" && heartbeats[0].token == Self.token && heartbeats[0].contentID == "c1")
            // heartbeatFreq, 300 ms, overrides the configured 5 s.
            let sent = heartbeats.prefix(4).compactMap(\.ts)
            let average = try #require(sent.last.map { ($0 - sent[0]) / Double(sent.count - 1) })
            #expect(average >= 290 && average < 2_000, "\(sent)")
            #expect(rig.heartbeat.concurrencyRequests().first?.event == "start")
            #expect(!rig.daemon.stderrText.contains("unknown key"))
        }
    }

    /// A misspelled flag: no heartbeat, and the log and status say which key and why.
    @Test func aMisspelledKeyIsWarnedOfCountedAndStatusSaysWhyNoHeartbeatRuns() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.2"]) { rig in
            let heartbeat = #"{"heartbeatFlg": true, "heartbeatToken": "\#(Self.token)", "contentId": "c1"}"#
            try await rig.player.send(line: "load \(rig.mediaURL) {\"heartbeat\": \(heartbeat)}")
            #expect(try await rig.player.lines(1, timeout: .seconds(20))[0].contains("\"sessionId\""))
            try await rig.send(Self.liveTicks(to: Self.t0 + 1_000))
            let status = try await rig.daemon.waitForStatus("the heartbeat's answer to the load") { report in
                report.reporters.first { $0.name == .heartbeat }?.counters["unknownKeys"] == 1
            }
            let reporter = try #require(status.reporters.first { $0.name == .heartbeat })
            #expect(reporter.details["notRunning"]?.contains("a token but no flag") == true, "\(reporter.details)")
            #expect(reporter.state == "idle")
            let log = rig.daemon.stderrText
            #expect(log.contains("heartbeat: unknown key 'heartbeatFlg' (did you mean heartbeatFlag?), ignored"), "\(log.suffix(2000))")
            #expect(log.contains("heartbeat: none for this playback"))
            #expect(!log.contains(Self.token), "the token is never logged")
            #expect(rig.heartbeat.heartbeats().isEmpty && rig.heartbeat.concurrencyRequests().isEmpty)
        }
    }
}

extension HeartbeatTests {
    /// Quickplay's per-playback `heartbeatHeaders` go with every request on top of the configured
    /// ones (the playback's value wins for a name given in both) and never reach the log; a live
    /// 360 event ends at `live360EndTime`, not at the programme's end; `overflowEventMode` is read
    /// as `overflowMode`.
    @Test func quickplaysHeadersLive360TimesAndOverflowEventModeAreReadAsOurs() async throws {
        try await Self.withRig(["--heartbeat-sync-interval", "0.3", "--heartbeat-headers", "X-Tenant: t1; X-Api-Key: configured-key"]) { rig in
            try await rig.load(
                #", "heartbeatHeaders": {"X-Api-Key": "playback-key", "X-Device-Model": "stb-9"}, "liveStartTime": \#(Self.t0 + 500), "#
                    + #""liveEndTime": \#(Self.t0 + 1_000), "live360StartTime": \#(Self.t0), "live360EndTime": \#(Self.t0 + 2_500), "#
                    + #""liveEventType": "regular", "overflowEventMode": "before""#)
            try await rig.send(Self.liveTicks(to: Self.t0 + 2_000))
            #expect(try await rig.waitForNotifications(1) == [#"{"notification":"liveProgramStart","suggestedAction":"switchToMain"}"#])
            // A heartbeat that carries the playhead at 2 s: the tracker saw every tick up to it.
            let heartbeats = try await eventuallyValue("a heartbeat at 2 s") {
                rig.heartbeat.heartbeats().contains { ($0.playhead ?? 0) >= Double(Self.t0 + 2_000) } ? rig.heartbeat.heartbeats() : nil
            }
            #expect(rig.notifications.count == 1, "the programme's end, 1 s, does not end a live 360 event")
            for heartbeat in heartbeats {
                let headers = Dictionary(heartbeat.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first }
                #expect(headers["x-api-key"] == "playback-key" && headers["x-tenant"] == "t1" && headers["x-device-model"] == "stb-9", "\(headers)")
            }
            try await rig.send(Self.liveTicks(to: Self.t0 + 3_000, from: Self.t0 + 2_250))
            let told = try await rig.waitForNotifications(2)
            #expect(told.last == #"{"notification":"stopPlayback","reason":"liveEventEnd","action":"stop"}"#)
            let log = rig.daemon.stderrText
            #expect(!log.contains("playback-key") && !log.contains("configured-key"), "header values are never logged")
            #expect(!log.contains("unknown key"))
            let check = try await runBeaconctl(["config", "check"], environment: ["BEACONCTL_HEARTBEAT_HEADERS": "X-Api-Key: configured-key"])
            #expect(check.stdout.contains(#"heartbeat.headers = { "X-Api-Key" = "***" }"#) && !check.stdout.contains("configured-key"), "\(check.stdout)")
        }
    }
}
