import BeaconDomain
import BeaconRuntime
import Foundation
import Testing

/// The reporters of the real binary, switched with `beaconctl send`: `beacons` disabled sends no
/// beacon (its events are done, as in quiet mode), enabled again it sends the next ones; `status`
/// shows each reporter.
@Suite(.timeLimit(.minutes(5))) struct ReporterTests {
    static let first = Ads.t0 + 5_000
    static let second = Ads.t0 + 30_000
    static let third = Ads.t0 + 55_000

    func send(_ daemon: DaemonProcess, _ words: String) async throws -> String {
        let result = try await runBeaconctl(["send", "--socket", daemon.socketPath] + words.split(separator: " ").map(String.init))
        #expect(result.status == 0, "\(words): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    @Test func disablingBeaconsStopsThemAndEnablingResumesThem() async throws {
        try await withPlayback(adBreaks: { service in
            [
                Ads.adBreak(id: "p1", start: Self.first, on: service), Ads.adBreak(id: "p2", start: Self.second, on: service),
                Ads.adBreak(id: "p3", start: Self.third, on: service),
            ]
        }) { service, daemon in
            let list = try JSONDecoder().decode(ReporterList.self, from: Data(try await send(daemon, "reporter list").utf8))
            #expect(list.reporters.map(\.name) == [.beacons, .mediaAnalytics, .heartbeat, .telemetry])
            #expect(list.reporters.map(\.enabled) == [true, false, false, false])
            #expect(list.reporters.map(\.state) == ["sending", "not configured", "not configured", "not configured"])

            var feed = TickFeed(from: Ads.t0)
            feed.play(to: Self.first + 15_000)
            daemon.send(feed.lines)
            try await eventually("the first ad's beacons") { Ads.playbackTypes.allSatisfy { service.beaconCount(ad: "p1-a1", $0) == 1 } }

            let disabled = try JSONDecoder().decode(ReporterStatus.self, from: Data(try await send(daemon, "reporter disable beacons").utf8))
            #expect(disabled.enabled == false)
            #expect(disabled.state == "disabled")
            feed = TickFeed(from: Self.first + 15_000)
            feed.play(to: Self.second + 15_000)
            daemon.send(feed.lines)
            let quietly = try await daemon.waitForStatus("the second ad's events done") { report in
                Ads.playbackTypes.allSatisfy { report.state(ofAd: "p2-a1", $0) == .done }
            }
            #expect(quietly.reporters.first?.counters["notSent"] == Ads.playbackTypes.count)

            let enabled = try JSONDecoder().decode(ReporterStatus.self, from: Data(try await send(daemon, "reporter enable beacons").utf8))
            #expect(enabled.enabled && enabled.state == "sending")
            feed = TickFeed(from: Self.second + 15_000)
            feed.play(to: Self.third + 15_000)
            daemon.send(feed.lines)
            try await eventually("the third ad's beacons") { Ads.playbackTypes.allSatisfy { service.beaconCount(ad: "p3-a1", $0) == 1 } }

            // The sink may answer before the daemon has recorded the answers.
            let status = try await daemon.waitForStatus("the third ad's beacons counted") {
                $0.reporters.first?.counters["sent"] == 2 * Ads.playbackTypes.count
            }
            let beacons = try #require(status.reporters.first)
            #expect(beacons.name == .beacons && beacons.enabled)
            #expect(beacons.failuresInARow == 0)
            #expect(beacons.lastAnswer == "200")
            let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
            #expect(human.stdout.contains("reporters"), "\(human.stdout)")
            #expect(human.stdout.split(separator: "\n").contains { $0.hasPrefix("  media-analytics") && $0.hasSuffix("not configured") })

            try await finish(daemon)
            for type in Ads.playbackTypes {
                #expect(service.beaconCount(ad: "p2-a1", type) == 0, "\(type) fired while beacons were disabled")
            }
            expectEachPlaybackEventOnce(service, ads: ["p1-a1", "p3-a1"])
        }
    }

    @Test func anUnknownOrUnconfiguredReporterIsRefused() async throws {
        try await withPlayback(adBreaks: { _ in [] }) { _, daemon in
            let unknown = try await runBeaconctl(["send", "--socket", daemon.socketPath, "reporter", "enable", "adobe"])
            #expect(unknown.status == 1)
            #expect(unknown.stdout.contains("reporter 'adobe' is unknown"), "\(unknown.stdout)")
            let unconfigured = try await runBeaconctl(["send", "--socket", daemon.socketPath, "reporter", "enable", "heartbeat"])
            #expect(unconfigured.status == 1)
            #expect(unconfigured.stdout.contains("reporter heartbeat is not configured"), "\(unconfigured.stdout)")
            try await finish(daemon)
        }
    }

    /// A file written with Quickplay's and Adobe's own names: `config check` reads it and prints
    /// each setting under ours; a misspelling exits 78 naming the nearest name.
    @Test func configCheckReadsTheDocumentsOwnNamesAndPrintsOurs() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("q.toml")
        try "[heartbeat]\nheartbeatEndPointUrl = \"https://hb.test/beat\"\nsyncInterval = 30\n[media-analytics]\nrsids = \"suite\"\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let check = try await runBeaconctl(["config", "check", file])
        #expect(check.status == 0, "\(check.stderr)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("heartbeat.endpoint = \"https://hb.test/beat\"  # file \(file)"), "\(check.stdout)")
        #expect(lines.contains("heartbeat.sync-interval = 30  # file \(file)"))
        #expect(lines.contains("media-analytics.report-suite = \"suite\"  # file \(file)"))
        try "[heartbeat]\nsyncIntervall = 30\n".write(toFile: file, atomically: true, encoding: .utf8)
        let misspelled = try await runBeaconctl(["config", "check", file])
        #expect(misspelled.status == 78)
        #expect(misspelled.stderr.contains("heartbeat.syncIntervall (file \(file)): unknown key (did you mean syncInterval?)"), "\(misspelled.stderr)")
    }

    @Test func aBadReporterSettingExits78NamingItAndConfigCheckListsThem() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("r.toml")
        try "[heartbeat]\nendpoint = \"https://hb.test/beat\"\nheaders = { \"X-Api-Key\" = \"k\" }\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let check = try await runBeaconctl(["config", "check", file], environment: ["BEACONCTL_MEDIA_ANALYTICS_PING_INTERVAL": "5"])
        #expect(check.status == 0, "\(check.stderr)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("heartbeat.endpoint = \"https://hb.test/beat\"  # file \(file)"), "\(check.stdout)")
        // A header's value may be an API key: masked, as every printed header value.
        #expect(lines.contains("heartbeat.headers = { \"X-Api-Key\" = \"***\" }  # file \(file)"), "\(check.stdout)")
        #expect(lines.contains("media-analytics.ping-interval = 5  # env BEACONCTL_MEDIA_ANALYTICS_PING_INTERVAL"))
        #expect(lines.contains("# media-analytics.endpoint is not set  # default"))

        let badVariable = try await runBeaconctl(["config", "check", file], environment: ["BEACONCTL_HEARTBEAT_SYNC_INTERVAL": "-1"])
        #expect(badVariable.status == 78)
        #expect(
            badVariable.stderr.contains(
                "heartbeat.sync-interval (env BEACONCTL_HEARTBEAT_SYNC_INTERVAL): must be a number of seconds above 0 and at most a week"),
            "\(badVariable.stderr)")
        let badFlag = try await runBeaconctl(
            ["run", "--config", file, "--media-analytics-endpoint", "ftp://collect.test", "--socket", directory.file("s.sock")])
        #expect(badFlag.status == 78)
        #expect(
            badFlag.stderr.contains("media-analytics.endpoint (flag --media-analytics-endpoint): scheme 'ftp' is not http or https"),
            "\(badFlag.stderr)")
    }
}
