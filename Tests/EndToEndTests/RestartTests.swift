import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Testing

/// Restarts, kills and an unwritable state directory: the journal keeps every beacon once, for a
/// Harmonic session and for a MediaTailor one.
@Suite(.timeLimit(.minutes(5))) struct RestartTests {
    let reliability = ReliabilityTests()
    var adBreakStart: Milliseconds { reliability.adBreakStart }
    var adDuration: Milliseconds { ReliabilityTests.adDuration }

    /// A sink that holds the first midpoint request (answered only after 30 s, so it is in flight
    /// meanwhile) and an ad service speaking `dialect` with one ad `<id>-a1` signaling it; `body`
    /// gets the daemon's arguments.
    func withAHeldMidpoint<R>(
        _ id: String, _ dialect: ServedDialect = .harmonic, _ body: (BeaconSink, AdBreak, [String]) async throws -> R
    ) async throws -> R {
        try await withBeaconSink { sink in
            sink.answer { uri, count in
                uri.contains("cn=midpoint") && count == 1 ? await .delayed(.seconds(30), .status(204)) : .status(204)
            }
            return try await withAdService { service in
                let adBreak = reliability.adBreak(id, ads: 1, on: sink)
                try dialect.serve([adBreak], on: service)
                return try await body(sink, adBreak, ["--media-url", dialect.mediaURL(service), "--stdin"])
            }
        }
    }

    /// Plays `feed` to the middle of the ad and waits until its midpoint request reached the sink, still in flight.
    func playUntilTheMidpointIsInFlight(_ daemon: DaemonProcess, _ sink: BeaconSink, ad: String, feed: inout TickFeed) async throws {
        try await daemon.waitUntilListening()
        feed.play(to: adBreakStart + adDuration / 2 + 500)
        daemon.send(feed.takeLines())
        try await daemon.waitForStatus("the events before the midpoint done and the midpoint in flight") { report in
            [.impression, .start, .firstQuartile].allSatisfy { report.state(ofAd: ad, $0) == .done }
                && report.deliveries.contains { $0.event == .midpoint && $0.state == .inFlight }
        }
        try await eventually("the midpoint request at the sink") { sink.count(ad: ad, .midpoint) == 1 }
    }

    @Test(arguments: ServedDialect.allCases)
    func afterKillNineTheResumedSessionSendsOnlyWhatWasInFlightTwice(_ dialect: ServedDialect) async throws {
        let state = try TemporaryDirectory()
        let environment = ["STATE_DIRECTORY": state.path]
        try await withAHeldMidpoint("k", dialect) { sink, adBreak, arguments in
            var feed = TickFeed(from: Ads.t0)
            try await withDaemon(arguments, environment: environment) { daemon in
                try await playUntilTheMidpointIsInFlight(daemon, sink, ad: "k-a1", feed: &feed)
                daemon.kill()
                _ = try await daemon.waitForExit()
            }
            try await withDaemon(arguments, environment: environment) { daemon in
                try await daemon.waitForStatus("the session resumed") { $0.session?.sessionID == ServedDialect.sessionID }
                feed.play(to: adBreakStart + adDuration + 500)
                daemon.send(feed.takeLines())
                let report = try await daemon.waitForStatus("every event done") { report in
                    Ads.playbackTypes.allSatisfy { report.state(ofAd: "k-a1", $0) == .done }
                }
                #expect(daemon.stderrLines.contains { $0.contains("session resumed from the journal") })
                #expect(report.counters.beaconsResent == 1)
                let resent = daemon.stderrLines.filter { $0.contains("BEACON sent") && $0.contains("resend=true") }
                #expect(resent.count == 1 && resent.first?.contains("event=midpoint") == true, "the re-sent request's line says so: \(resent)")
                reliability.expectEachBeacon(of: adBreak, on: sink, except: ["k-a1/midpoint"])
                #expect(sink.count(ad: "k-a1", .midpoint) == 2, "the request in flight at the kill, sent again\n\(sink.summary)")
                try await finish(daemon)
            }
        }
    }

    @Test(arguments: ServedDialect.allCases)
    func sigtermLetsASlowBeaconFinishAndLeavesAPendingOneToTheNextStart(_ dialect: ServedDialect) async throws {
        let state = try TemporaryDirectory()
        let environment = ["STATE_DIRECTORY": state.path]
        try await withBeaconSink { sink in
            sink.answer { uri, _ in
                // Long enough for status to see it in flight on a loaded machine, short enough for the 5 s drain.
                if uri.contains("cn=start") { return await .delayed(.seconds(3), .status(204)) }
                if uri.contains("cn=firstQuartile") { return .status(503) }
                return .status(204)
            }
            try await withAdService { service in
                let adBreak = reliability.adBreak("t", ads: 1, on: sink)
                try dialect.serve([adBreak], on: service)
                try await withDaemon(["--media-url", dialect.mediaURL(service), "--stdin", "--drain-timeout", "5"], environment: environment) {
                    daemon in
                    try await daemon.waitUntilListening()
                    var feed = TickFeed(from: Ads.t0)
                    feed.play(to: adBreakStart + adDuration / 4 + 500)
                    daemon.send(feed.lines)
                    try await daemon.waitForStatus("start in flight, firstQuartile waiting for a retry") { report in
                        report.deliveries.contains { $0.event == .start && $0.state == .inFlight }
                            && report.deliveries.contains { $0.event == .firstQuartile && $0.state == .due && $0.attempts >= 1 }
                    }
                    daemon.terminate()
                    #expect(try await daemon.waitForExit(timeout: .seconds(10)) == 0)
                    #expect(sink.count(ad: "t-a1", .start) == 1)
                    #expect(daemon.stderrLines.contains { $0.contains("BEACON sent") && $0.contains("event=start") }, "delivered within the drain")
                }
                sink.answer { _, _ in .status(204) }
                let before = sink.count(ad: "t-a1", .firstQuartile)
                try await withDaemon([], environment: environment) { daemon in
                    // The retry keeps its jittered wait across the restart: after 5 or 6 failed attempts
                    // (a slow machine's drain makes more) that is up to 16 or 32 s, and never past the cap.
                    try await daemon.waitForStatus(timeout: .seconds(70), "the pending beacon delivered after the restart") { report in
                        report.counters.beaconsSent == 1 && report.deliveries.allSatisfy { $0.state.isFinished }
                    }
                    #expect(sink.count(ad: "t-a1", .firstQuartile) == before + 1)
                    #expect(daemon.stderrLines.contains { $0.contains("resuming 1 beacon deliveries from the journal") })
                    reliability.expectEachBeacon(of: adBreak, on: sink, except: ["t-a1/firstQuartile", "t-a1/midpoint", "t-a1/thirdQuartile", "t-a1/complete"])
                }
            }
        }
    }

    @Test(arguments: ServedDialect.allCases)
    func anUnwritableStateDirectoryIsReportedBeaconsStillFireAndTheJournalComesBack(_ dialect: ServedDialect) async throws {
        let state = try TemporaryDirectory()
        try Self.setWritable(state.path, false)
        defer { try? Self.setWritable(state.path, true) }
        try await withBeaconSink { sink in
            try await withAdService { service in
                let adBreak = reliability.adBreak("w", ads: 1, on: sink)
                try dialect.serve([adBreak], on: service)
                try await withDaemon(["--media-url", dialect.mediaURL(service), "--stdin"], environment: ["STATE_DIRECTORY": state.path]) { daemon in
                    let first = try await daemon.waitUntilListening()
                    #expect(first.journal.state == .unavailable)
                    #expect(first.counters.journalErrors >= 1)
                    #expect(daemon.stderrLines.contains { $0.contains("[ERROR]") && $0.contains("journal unavailable") })
                    let text = try await runBeaconctl(["status", "--socket", daemon.socketPath])
                    #expect(text.stdout.contains("UNAVAILABLE, working from memory"), "\(text.stdout)")

                    var feed = TickFeed(from: Ads.t0)
                    feed.play(to: adBreakStart + adDuration + 500)
                    daemon.send(feed.lines)
                    try await daemon.waitForStatus("every event done without a journal") { report in
                        Ads.playbackTypes.allSatisfy { report.state(ofAd: "w-a1", $0) == .done }
                    }
                    reliability.expectEachBeacon(of: adBreak, on: sink)

                    try Self.setWritable(state.path, true)
                    try await daemon.waitForStatus(timeout: .seconds(30), "the journal back") { $0.journal.state == .ok }
                    #expect(FileManager.default.fileExists(atPath: state.file("journal.sqlite")))
                    try await finish(daemon)
                }
            }
        }
    }

    /// Makes `path` unwritable for the daemon, or writable again. Root writes through any mode, so
    /// for root the directory is made immutable instead.
    static func setWritable(_ path: String, _ writable: Bool) throws {
        if getuid() == 0 {
            let result = try runSync("/usr/bin/chattr", [writable ? "-i" : "+i", path])
            guard result == 0 else { throw TestFailure("chattr \(writable ? "-i" : "+i") \(path) exited \(result)") }
        } else {
            guard chmod(path, writable ? 0o700 : 0o500) == 0 else { throw TestFailure("chmod \(path): errno \(errno)") }
        }
    }

    private static func runSync(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
