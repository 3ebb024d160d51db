import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// SIGHUP reloads the configuration file; SIGPIPE never ends the daemon.
@Suite(.timeLimit(.minutes(5))) struct SignalTests {
    let adBreakStart = Ads.t0 + 2_000

    @Test func sighupAppliesTheChangedFileWithoutLosingTheSessionOrADelivery() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = directory.file("beaconctl.toml")
        try "log-level = \"info\"\nmetadata-interval = 0.5\n".write(toFile: config, atomically: true, encoding: .utf8)
        try await withPlayback(
            arguments: ["--config", config],
            configure: { $0.answerBeacons(containing: "cn=complete", with: .delay(.milliseconds(4_000))) },
            adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, adDuration: 4_000, on: $0)] }
        ) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 4_000)
            daemon.send(feed.lines)
            try await eventually(timeout: .seconds(10), "the complete request in flight") { service.beaconCount(ad: "p1-a1", .complete) == 1 }
            let before = try await daemon.status()
            #expect(!daemon.stderrLines.contains { $0.hasPrefix("[DEBUG]") })

            try "log-level = \"debug\"\nmetadata-interval = 40\nhttp-timeout = 20\n".write(toFile: config, atomically: true, encoding: .utf8)
            kill(daemon.child.processIdentifier, SIGHUP)
            // Two lines, written one after the other: wait for both before reading them.
            try await eventually(timeout: .seconds(30), "the reload line and the restart warning\n\(daemon.stderrText.suffix(2000))") {
                daemon.stderrLines.contains { $0.contains("configuration reloaded") }
                    && daemon.stderrLines.contains { $0.contains("need a restart") }
            }
            let reloaded = daemon.stderrLines.first { $0.contains("configuration reloaded") } ?? ""
            #expect(reloaded.contains(#"log-level "info" -> "debug""#), "\(reloaded)")
            #expect(reloaded.contains("metadata-interval 0.5 -> 40"), "\(reloaded)")
            #expect(daemon.stderrLines.contains { $0.contains("need a restart") && $0.contains("keys=http-timeout") })
            // The new interval holds from the next request on; the log level at once.
            let after = try await daemon.waitForStatus("a metadata request 40 s after the last") { report in
                guard let next = report.nextMetadataAt, let last = report.lastMetadataAt else { return false }
                return next - last > 30_000
            }
            try await eventually("a debug line") { daemon.stderrLines.contains { $0.hasPrefix("[DEBUG]") } }
            #expect(after.session == before.session)

            // An invalid file is refused; the running configuration stays.
            try "metadata-interval = \"soon\"\n".write(toFile: config, atomically: true, encoding: .utf8)
            kill(daemon.child.processIdentifier, SIGHUP)
            try await eventually(timeout: .seconds(10), "the refused reload") {
                daemon.stderrLines.contains {
                    $0.hasPrefix("[ERROR]") && $0.contains("configuration reload failed, keeping the running configuration")
                        && $0.contains("metadata-interval")
                }
            }
            let kept = try await daemon.waitForStatus("the delayed complete delivered") { $0.state(ofAd: "p1-a1", .complete) == .done }
            #expect(kept.session == before.session)
            if let next = kept.nextMetadataAt, let last = kept.lastMetadataAt { #expect(next - last > 30_000) }
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
            #expect(daemon.stderrLines.filter { $0.contains("BEACON sent") && $0.contains("event=complete") }.count == 1)
        }
    }

    static let sigpipeTestable = ChildProcess.canRestoreDefaultSIGPIPE
    static let noDefaultSIGPIPE = "env --default-signal=PIPE is not available: a daemon started by the tests inherits their ignored SIGPIPE"

    @Test(.enabled(if: sigpipeTestable, Comment(rawValue: noDefaultSIGPIPE)))
    func aControlClientThatLeavesMidReplyDoesNotEndTheDaemon() async throws {
        try await withAdService { service in
            service.serve(Ads.document((1...40).map { Ads.adBreak(id: "p\($0)", start: adBreakStart + Milliseconds($0) * 60_000, on: service) }))
            let mediaURL = "\(service.baseURL)/live/master.m3u8?sessid=e2e"
            let daemon = try DaemonProcess(["--media-url", mediaURL, "--stdin"], defaultSIGPIPE: true)
            defer {
                daemon.kill()
                daemon.directory.remove()
            }
            try await daemon.waitForStatus("the metadata") { $0.adBreaks.count == 40 }
            // Each asks for many large status replies and closes without reading one.
            for _ in 0..<20 {
                let fd = try RawSocketConnection.open(path: daemon.socketPath, sending: Array(repeating: "status", count: 200))
                try await Task.sleep(for: .milliseconds(20))
                close(fd)
            }
            try await Task.sleep(for: .seconds(1))
            // The 4 000 replies owed to clients that left take a while on a loaded machine: the
            // daemon must outlive them and answer, however late (a status timing out is asked again).
            try await daemon.waitForStatus(timeout: .seconds(60), "an answer after the clients left") { $0.adBreaks.count == 40 }
            try await finish(daemon)
        }
    }

    @Test(.enabled(if: sigpipeTestable, Comment(rawValue: noDefaultSIGPIPE)))
    func aClosedStdoutDoesNotEndTheDaemon() async throws {
        try await withAdService { service in
            service.serve(Ads.document([Ads.adBreak(id: "p1", start: adBreakStart, adDuration: 4_000, on: service)]))
            let mediaURL = "\(service.baseURL)/live/master.m3u8?sessid=e2e"
            let daemon = try DaemonProcess(["--media-url", mediaURL, "--stdin"], stdout: .closed, defaultSIGPIPE: true)
            defer {
                daemon.kill()
                daemon.directory.remove()
            }
            // The session's line goes to the closed stdout as soon as the session is ready.
            try await daemon.waitForStatus("the session ready") { $0.session != nil }
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 5_000)
            daemon.send(feed.lines)
            try await daemon.waitForStatus("every playback event reported") { report in
                Ads.playbackTypes.allSatisfy { report.state(ofAd: "p1-a1", $0) == .done }
            }
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
        }
    }
}
