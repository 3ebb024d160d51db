import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Testing

/// Logs never stop beacons: a stderr nobody reads, and a client flooding bad lines.
@Suite(.timeLimit(.minutes(5))) struct LogBackpressureTests {
    let adBreakStart = Ads.t0 + 2_000

    /// `count` back-to-back ads of 1 s whose URLs are long, so that their log lines fill a pipe fast.
    func longURLPod(ads count: Int, on service: AdService) -> AdBreak {
        let padding = "&pad=" + String(repeating: "x", count: 1_000)
        let ads = (0..<count).map { index in
            let adID = "p1-a\(index + 1)"
            return StandardAd.make(id: adID, start: adBreakStart + Milliseconds(index) * 1_000, duration: 1_000, userTypes: []) {
                [service.beaconURL(ad: adID, $0, extra: padding)]
            }
        }
        return AdBreak(id: "p1", startTime: adBreakStart, duration: Milliseconds(count) * 1_000, ads: ads)
    }

    /// The counts of every `log lines dropped` line.
    static func droppedNotices(in lines: [String]) -> [Int] {
        lines.compactMap { line in
            guard line.contains("> log lines dropped: stderr did not take them in time count=") else { return nil }
            return line.split(separator: "=").last.flatMap { Int($0) }
        }
    }

    @Test func aStderrNobodyReadsStopsNoBeaconAndTheDroppedLinesAreCounted() async throws {
        try await withAdService { service in
            let ads = 40
            service.serve(Ads.document([longURLPod(ads: ads, on: service)]))
            let mediaURL = "\(service.baseURL)/live/master.m3u8?sessid=e2e"
            let daemon = try DaemonProcess(["--media-url", mediaURL, "--stdin", "--debug-tracking"], stderr: .paused)
            defer {
                daemon.kill()
                daemon.directory.remove()
            }
            try await daemon.waitUntilListening()
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + Milliseconds(ads) * 1_000 + 500)
            daemon.send(feed.lines)
            // Each beacon logs about 2 kB (its URL twice): far more than the pipe and the log buffer hold.
            let report = try await daemon.waitForStatus(timeout: .seconds(90), "every beacon delivered while stderr is not read") { report in
                report.counters.beaconsSent == ads * Ads.playbackTypes.count
            }
            #expect(report.counters.logLinesDropped > 0)
            #expect(service.beacons.count == ads * Ads.playbackTypes.count)
            for index in 1...ads {
                for type in Ads.playbackTypes { #expect(service.beaconCount(ad: "p1-a\(index)", type) == 1, "\(type) of p1-a\(index)") }
            }
            // The end of input drains with stderr still stalled; at exit the daemon waits (2 s at most)
            // for what it holds to be written: read again as the drain ends, everything it held comes
            // out, with a line saying how many were dropped where they were: drops happen only while
            // stderr is stalled, so a notice on stderr is held content written out at exit.
            daemon.closeInput()
            try await eventually(timeout: .seconds(30), "the end of the drain (the control socket removed)") {
                !FileManager.default.fileExists(atPath: daemon.socketPath) || daemon.child.exitStatus != nil
            }
            daemon.child.stderr.resume()
            #expect(try await daemon.waitForExit() == 0)
            try await eventually("the end of stderr") { daemon.child.stderr.isFinished }
            let notices = Self.droppedNotices(in: daemon.stderrLines)
            // Lines that came after a drop may follow its notice: the notice marks where the gap is, not the end.
            #expect(!notices.isEmpty, "\(daemon.stderrText.suffix(2000))")
            #expect(notices.reduce(0, +) >= report.counters.logLinesDropped)
            let dropped = notices.reduce(0, +)
            print("stalled stderr: \(report.counters.beaconsSent) beacons delivered, status answered, \(dropped) log lines dropped")
        }
    }

    @Test func aClientWritingAHundredThousandBadLinesGetsAFewLogLinesAndEveryOneCounted() async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, adDuration: 4_000, on: $0)] }) { service, daemon in
            let count = 100_000
            let flood = Array((0..<count).map { "not a line \($0)\n" }.joined().utf8)
            let client = try #require(try await ControlClient.connect(path: daemon.socketPath).first)
            let started = ContinuousClock.now
            try await client.send(flood)
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 5_000)
            daemon.send(feed.lines)
            try await daemon.waitForStatus(timeout: .seconds(120), "every bad line counted") { $0.counters.badLines == count }
            let seconds = Int((ContinuousClock.now - started).components.seconds) + 2
            client.hangUp()
            try await eventually(timeout: .seconds(10), "the summary of the client that left") {
                daemon.stderrLines.contains { $0.contains("bad input lines not logged") && $0.contains("client=socket#") }
            }
            try await daemon.waitForStatus("every playback event reported") { report in
                Ads.playbackTypes.allSatisfy { report.state(ofAd: "p1-a1", $0) == .done }
            }
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])

            let lines = daemon.stderrLines
            let logged = lines.filter { $0.contains("bad input line ignored") }
            let summaries = lines.filter { $0.contains("bad input lines not logged") }
            // At most 5 a second logged, and one summary a second: the log stays small...
            #expect(logged.count <= 5 * seconds, "\(logged.count) lines in \(seconds) s")
            #expect(summaries.count <= seconds)
            #expect(daemon.stderrText.utf8.count < 100_000, "\(daemon.stderrText.utf8.count) bytes of log")
            // ...and the lines not logged add up to every refusal.
            let unlogged = summaries.compactMap { $0.split(separator: "count=").last.flatMap { Int($0) } }.reduce(0, +)
            #expect(logged.count + unlogged == count)
            print("\(count) bad lines on one connection: \(logged.count) logged, \(summaries.count) summaries, \(daemon.stderrText.utf8.count) bytes of log in all")
            #expect(logged.allSatisfy { $0.contains("client=socket#") })
        }
    }
}
