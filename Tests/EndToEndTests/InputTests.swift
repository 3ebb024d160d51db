import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// The line protocol on stdin and on the control socket.
@Suite(.timeLimit(.minutes(5))) struct InputTests {
    let adBreakStart = Ads.t0 + 2_000

    @Test func garbageLinesAreCountedLoggedAndChangeNothing() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, on: $0)] }) { service, daemon in
            // Into the ad, up to 1 s before its first quartile.
            var before = TickFeed(from: Ads.t0)
            before.play(to: adBreakStart + 2_000)
            daemon.send(before.lines)

            let garbage: [[UInt8]] = [
                Array(String(repeating: "7", count: 70_000).utf8) + [0x0A],
                [0xFF, 0xFE, 0x41, 0xC3, 0x28, 0x0A],
                Array("hello\n".utf8),
                Array("{\"playhead\":\n".utf8),
                Array("NaN\n".utf8),
                Array("-5\n".utf8),
                Array("playhead 99999999999999999\n".utf8),
            ]
            for line in garbage { daemon.send(bytes: line) }

            var after = TickFeed(from: adBreakStart + 2_250, at: before.at + 250)
            after.play(to: adBreakStart + 14_000)
            daemon.send(after.lines)

            let report = try await daemon.waitForStatus("every tick handled") {
                $0.counters.ticks == before.tickCount + after.tickCount
            }
            #expect(report.counters.badLines == garbage.count)
            try await finish(daemon)
            // The first 5 of the second are logged; the end of stdin reports the 2 others.
            let logged = daemon.stderrLines.filter { $0.contains("bad input line ignored") }
            #expect(logged.count == 5, "\(daemon.stderrText.suffix(4000))")
            for line in logged {
                #expect(line.contains("reason=\"") && !line.contains("reason=\"\"") && line.hasSuffix(" client=stdin"), "\(line.prefix(300))")
            }
            #expect(logged.contains { $0.contains("longer than") })
            #expect(logged.contains { $0.contains("UTF-8") })
            #expect(daemon.stderrLines.filter { $0.contains("bad input lines not logged") }.map { $0.hasSuffix("client=stdin count=2") } == [true])
            // The garbage fell between two ticks of the ad: the stretch around it still counts.
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
        }
    }

    @Test func ticksOverTheControlSocketFireBeacons() async throws {
        try await withAdService(route: { request in
            guard request.path == "/live/master.m3u8", request.method == "POST" else { return nil }
            return .json(#"{"manifestUrl": "/live/master.m3u8?sessid=sock", "trackingUrl": "/live/metadata?sessid=sock"}"#)
        }) { service in
            service.serve(Ads.document([Ads.adBreak(id: "p1", start: adBreakStart, on: service)]))
            try await withDaemon([]) { daemon in
                let idle = try await daemon.waitUntilListening()
                #expect(idle.state == "idle")
                #expect(idle.session == nil)

                let mediaURL = "\(service.baseURL)/live/master.m3u8"
                let reply = try await daemon.request("load \(mediaURL)", timeout: .seconds(30))
                let announced = try JSONDecoder().decode([String: String].self, from: Data(reply.utf8))
                #expect(announced["sessionId"] == "sock")
                #expect(announced["manifestUrl"] == "\(service.baseURL)/live/master.m3u8?sessid=sock")
                #expect(announced["trackingUrl"] == "\(service.baseURL)/live/metadata?sessid=sock")

                try await daemon.waitForStatus("the first metadata") { $0.dataRange != nil }
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: adBreakStart + 14_000)
                feed.line("not a command")
                let replies = try await RawSocketConnection.exchange(path: daemon.socketPath, lines: feed.lines)
                #expect(replies.count == 1)
                #expect(replies.first?.hasPrefix("{\"error\"") == true, "\(replies)")

                try await eventually("6 beacons") { service.beacons.count >= 6 }
                try await daemon.waitForStatus("every playback event done") { report in
                    Ads.playbackTypes.allSatisfy { report.state(ofAd: "p1-a1", $0) == .done }
                }
                expectEachPlaybackEventOnce(service, ads: ["p1-a1"])

                let sentStatus = try await runBeaconctl(["send", "--socket", daemon.socketPath, "status"])
                #expect(sentStatus.status == 0)
                #expect(try StatusReport.decode(jsonLine: sentStatus.stdout.trimmingCharacters(in: .newlines)).counters.ticks == feed.tickCount)

                let unload = try await runBeaconctl(["send", "--socket", daemon.socketPath, "unload"])
                #expect(unload.status == 0, "\(unload.stderr)")
                let after = try await daemon.waitForStatus("idle after unload") { $0.state == "idle" }
                #expect(after.session == nil)
                #expect(after.adBreaks.isEmpty)

                daemon.terminate()
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }
}
