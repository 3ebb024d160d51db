import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// What `beaconctl run` writes on stderr: the line shape, journald priorities, levels, debug tracking.
@Suite(.timeLimit(.minutes(5))) struct LogTests {
    let adBreakStart = Ads.t0 + 2_000

    /// Plays one ad through and sends one bad line (a warning); returns the daemon's stderr lines.
    func playOneAd(arguments: [String] = [], environment: [String: String] = [:]) async throws -> (lines: [String], service: AdService?) {
        var result: (lines: [String], service: AdService?) = ([], nil)
        try await withPlayback(
            arguments: arguments, environment: environment, adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, adDuration: 4_000, on: $0)] }
        ) { service, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 5_000)
            daemon.send(feed.lines)
            daemon.send("not a line")
            try await daemon.waitForStatus("every playback event reported") { report in
                Ads.playbackTypes.allSatisfy { report.state(ofAd: "p1-a1", $0) == .done }
            }
            try await finish(daemon)
            result = (daemon.stderrLines, service)
        }
        return result
    }

    static let levels = "TRACE|DEBUG|INFO|NOTICE|WARNING|ERROR|CRITICAL"

    @Test func everyLineHasLevelTimestampComponentOperationAndMessage() async throws {
        let (lines, _) = try await playOneAd()
        let shape = try Regex(#"^\[(\#(Self.levels))\] \[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] \[[a-z]+\] #[a-z]+ > \S.*$"#)
        #expect(!lines.isEmpty)
        for line in lines { #expect(line.wholeMatch(of: shape) != nil, "\(line)") }
        for operation in ["#init", "#session", "#metadata", "#beacon", "#input", "#drain"] {
            #expect(lines.contains { $0.contains("] \(operation) > ") }, "\(operation)")
        }
    }

    @Test func everyBeaconLineCarriesTheTokenAdBreakAdEventURLStatusAndLatency() async throws {
        let (lines, _) = try await playOneAd()
        let beacons = lines.filter { $0.contains(" BEACON ") }
        #expect(beacons.count == Ads.playbackTypes.count, "\(lines.joined(separator: "\n"))")
        let shape = try Regex(#"> BEACON sent pod=p1 ad=p1-a1 event=\w+ url=http://127\.0\.0\.1:\d+/beacon\S* status=200 latency_ms=\d+ attempt=1$"#)
        for line in beacons { #expect(line.firstMatch(of: shape) != nil, "\(line)") }
    }

    @Test func underJournaldEachLineStartsWithThePriorityOfItsLevelAndHasNoTimestamp() async throws {
        let (lines, _) = try await playOneAd(arguments: ["--log-level", "debug"], environment: ["JOURNAL_STREAM": "8:4242"])
        let priorities = ["TRACE": 7, "DEBUG": 7, "INFO": 6, "NOTICE": 5, "WARNING": 4, "ERROR": 3, "CRITICAL": 2]
        let shape = try Regex(#"^<(\d)>\[(\#(Self.levels))\] \[[a-z]+\] #[a-z]+ > \S.*$"#)
        var seen: Set<Int> = []
        for line in lines {
            guard let match = line.wholeMatch(of: shape), let priority = Int(match.output[1].substring ?? ""),
                let level = match.output[2].substring
            else {
                Issue.record("not a journald line: \(line)")
                continue
            }
            #expect(priorities[String(level)] == priority, "\(line)")
            seen.insert(priority)
        }
        #expect(seen.isSuperset(of: [4, 6, 7]), "\(lines.joined(separator: "\n"))")
    }

    @Test func theLogLevelHidesLowerLevels() async throws {
        let (lines, _) = try await playOneAd(arguments: ["--log-level", "warning"])
        #expect(lines.allSatisfy { $0.hasPrefix("[WARNING]") || $0.hasPrefix("[ERROR]") || $0.hasPrefix("[CRITICAL]") }, "\(lines)")
        #expect(lines.contains { $0.contains("bad input line ignored") })
        let (infoLines, _) = try await playOneAd()
        #expect(!infoLines.contains { $0.hasPrefix("[DEBUG]") })
        #expect(!infoLines.contains { $0.contains("debug logging is on") })
    }

    @Test func debugTrackingLogsEachBeaconURLAndMetadataSizeEvenWhenQuietAndAtErrorLevel() async throws {
        let (lines, service) = try await playOneAd(arguments: ["--debug-tracking", "--quiet"], environment: ["BEACONCTL_LOG_LEVEL": "error"])
        #expect(service?.beacons.isEmpty == true)
        #expect(lines.contains { $0.hasPrefix("[WARNING]") && $0.contains("#init > debug logging is on, not for production") }, "\(lines)")
        let requested = lines.filter { $0.hasPrefix("[DEBUG]") && $0.contains("#beacon > BEACON requesting pod=p1 ad=p1-a1 event=") }
        #expect(requested.count == Ads.playbackTypes.count, "\(lines.joined(separator: "\n"))")
        #expect(requested.allSatisfy { $0.contains(" url=http://127.0.0.1:") && $0.hasSuffix("quiet=true") })
        #expect(lines.contains { $0.hasPrefix("[DEBUG]") && $0.contains("#metadata > metadata received status=200 bytes=") })
        // Beacon and metadata lines show at every level; the log level still holds for everything else.
        let others = lines.filter { !$0.contains("] #beacon > ") && !$0.contains("] #metadata > ") }
        #expect(others.allSatisfy { !$0.hasPrefix("[INFO]") && !$0.hasPrefix("[DEBUG]") }, "\(others.joined(separator: "\n"))")
        #expect(!others.isEmpty)
    }

    @Test func debugLogLevelWarnsAtStartUp() async throws {
        let (lines, _) = try await playOneAd(arguments: ["--log-level", "trace"])
        #expect(lines.first { $0.contains("debug logging is on, not for production") }?.hasPrefix("[WARNING]") == true, "\(lines)")
    }
}
