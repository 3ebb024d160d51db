import BeaconDomain
import BeaconRuntime
import Foundation
import Testing

/// `beaconctl audit` and `audit explain` against the journal a run left, while its daemon runs (it
/// asks the daemon where its journal is) and once it stopped (the file alone, read-only).
@Suite(.timeLimit(.minutes(5))) struct AuditCommandTests {
    static let adBreakStart = Ads.t0 + 5_000

    /// The JSON records `beaconctl audit <arguments> --json` prints.
    static func records(_ arguments: [String]) async throws -> [[String: Any]] {
        let result = try await runBeaconctl(["audit", "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func theAuditReadsWhileTheDaemonRunsAndAfterItStopped() async throws {
        let state = try TemporaryDirectory()
        var socket = ""
        try await withPlayback(
            arguments: ["--state-dir", state.path], adBreaks: { [Ads.adBreak(id: "p1", start: Self.adBreakStart, ads: 2, userEvents: false, on: $0)] }
        ) { service, daemon in
            socket = daemon.socketPath
            try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 1 }
            var feed = TickFeed(from: Ads.t0)
            // The first ad's impression, start and first quartile; then a seek past the ad break.
            feed.play(to: Self.adBreakStart + 5_000)
            feed.jump(to: Self.adBreakStart + 30_000)
            feed.play(to: Self.adBreakStart + 31_000)
            daemon.send(feed.takeLines())
            try await eventually("the first ad's first beacons") { service.beacons.count == 3 }
            try await eventually("their attempts in the audit") {
                try await Self.records(["--socket", daemon.socketPath, "--outcome", "delivered"]).count == 3
            }
            let running = try await runBeaconctl(["audit", "--socket", daemon.socketPath, "--ad", "p1-a1", "--event", "impression"])
            #expect(running.status == 0 && running.stdout.contains("due") && running.stdout.contains("delivered"), "\(running)")
            let explained = try await runBeaconctl(["audit", "explain", "e2e", "p1-a1", "start", "--socket", daemon.socketPath])
            #expect(explained.stdout.contains("fired at") && explained.stdout.contains("It was delivered"), "\(explained.stdout)")
            try await finish(daemon)
        }
        // The daemon is gone: the file alone.
        let stopped = try await runBeaconctl(["audit", "--state-dir", state.path, "--socket", socket])
        #expect(stopped.status == 0 && stopped.stdout.contains("session-end"), "\(stopped)")
        let notFired = try await Self.records(["--state-dir", state.path, "--outcome", "not-fired"])
        #expect(Set(notFired.compactMap { $0["adId"] as? String }) == ["p1-a1", "p1-a2"])
        #expect(notFired.count == 3 + Ads.playbackTypes.count && notFired.allSatisfy { $0["notFired"] as? String == "seeked-over" })
        let explained = try await runBeaconctl(["audit", "explain", "e2e", "p1-a2", "complete", "--state-dir", state.path])
        #expect(explained.status == 0 && explained.stdout.contains("never fired") && explained.stdout.contains("seek"), "\(explained.stdout)")
        let recent = try await Self.records(["--state-dir", state.path, "--since", "1h", "--session", "e2e", "--limit", "3"])
        #expect(recent.count == 3 && recent.last?["record"] as? String == "session-end")
        #expect(try await Self.records(["--state-dir", state.path, "--since", "2099-01-01T00:00:00Z"]).isEmpty)
    }

    @Test func badFiltersAndAMissingJournalSayWhy() async throws {
        let wrong = try await runBeaconctl(["audit", "--outcome", "lost"])
        #expect(wrong.status == 64 && wrong.stderr.contains("given-up"), "\(wrong)")
        let since = try await runBeaconctl(["audit", "--since", "yesterday"])
        #expect(since.status == 64 && since.stderr.contains("--since"), "\(since)")
        let empty = try TemporaryDirectory()
        let missing = try await runBeaconctl(["audit", "--state-dir", empty.file("nothing")])
        #expect(missing.status == 1 && missing.stderr.contains("journal.sqlite"), "\(missing)")
    }
}
