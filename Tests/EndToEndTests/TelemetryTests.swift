import BeaconDomain
import BeaconRuntime
import Foundation
import Testing

/// The telemetry reporter with the real binary against the OTLP collector double, which parses
/// every export with the official OTLP definitions and refuses what breaks OTLP/JSON: each step of
/// a tracking event's story arrives as one log record, once, through outages, kills, retries and
/// refusals, and nothing of it delays a beacon.
@Suite(.enabled(if: CollectorInterpreter.path != nil, CollectorInterpreter.skipped), .timeLimit(.minutes(5)))
struct TelemetryTests {
    static let apiKey = "key-0123456789-secret"
    static let adBreakStart = Ads.t0 + 5_000

    static func flags(_ collector: CollectorDouble, state: TemporaryDirectory) -> [String] {
        [
            "--telemetry-endpoint", collector.endpoint, "--telemetry-log-interval", "1", "--telemetry-export-interval", "2",
            "--telemetry-headers", "X-Api-Key: \(apiKey)", "--telemetry-resource-attributes", "deployment.environment=e2e",
            "--instance", "living-room", "--state-dir", state.path,
        ]
    }

    /// One ad break of two 12 s ads, 5 s into the feed.
    static func adBreaks(_ service: AdService) -> [AdBreak] {
        [Ads.adBreak(id: "p1", start: adBreakStart, ads: 2, userEvents: false, on: service)]
    }

    /// The ad break played through, once its metadata is applied: every beacon of both ads.
    static func playBothAds(_ daemon: DaemonProcess, _ service: AdService) async throws {
        try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 1 }
        var feed = TickFeed(from: Ads.t0)
        feed.play(to: adBreakStart + 24_500)
        daemon.send(feed.takeLines())
        try await eventually("both ads' beacons") { service.beacons.count == 2 * Ads.playbackTypes.count }
    }

    /// The records the collector took of `kind` (`due`, `attempt`...), by `ad/event`.
    static func records(_ logs: [CollectedLogRecord], _ kind: String) -> [String: [CollectedLogRecord]] {
        Dictionary(grouping: logs.filter { $0.attributes["beaconctl.record"] == .string(kind) }) { record in
            "\(record.attributes["beaconctl.ad.id"]?.string ?? "-")/\(record.attributes["beaconctl.event"]?.string ?? "-")"
        }
    }

    /// The ids of the audit's records in `state`, as `beaconctl audit --json` prints them.
    static func auditIDs(_ state: TemporaryDirectory) async throws -> [String] {
        let result = try await runBeaconctl(["audit", "--json", "--state-dir", state.path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
    }

    /// Every audit record of `state` reached the collector, each exactly once; with `exactly`, and
    /// nothing else (a batch read before the audit's bound dropped its records still leaves).
    @discardableResult
    static func expectEveryRecordOnce(
        _ collector: CollectorDouble, _ state: TemporaryDirectory, exactly: Bool = true, within timeout: Duration = .seconds(30)
    ) async throws -> [String] {
        let audit = try await auditIDs(state)
        #expect(!audit.isEmpty)
        var ids: [String] = []
        let deadline = ContinuousClock.now + timeout
        repeat {
            ids = try await collector.logRecords().compactMap { $0.attributes["beaconctl.record.id"]?.string }
            if Set(audit).isSubset(of: Set(ids)) { break }
            try await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < deadline
        let missing = audit.filter { !ids.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) of \(audit.count) records never reached the collector: \(missing.prefix(5))")
        let doubled = Dictionary(grouping: ids) { $0 }.filter { $0.value.count > 1 }.keys
        #expect(doubled.isEmpty, "records taken twice: \(doubled.sorted())")
        if exactly { #expect(ids.count == audit.count, "\(ids.count) records taken, \(audit.count) in the audit") }
        return ids
    }

    @Test func aPlayedAdBreakArrivesStepByStepWithItsAttributesResourceAndMetrics() async throws {
        let state = try TemporaryDirectory()
        try await withCollectorDouble { collector in
            try await withPlayback(arguments: Self.flags(collector, state: state), adBreaks: Self.adBreaks) { service, daemon in
                try await Self.playBothAds(daemon, service)
                try await eventually(timeout: .seconds(20), "the metrics exported") {
                    try await collector.metricPoints().contains { $0.name == "beaconctl_beacons_total" }
                }
                // The API key reaches the collector and nothing else: not status, not the log.
                let status = try await daemon.statusLine()
                #expect(status.contains(#""name":"telemetry""#) && !status.contains(Self.apiKey))
                try await finish(daemon)
                #expect(!daemon.stderrText.contains(Self.apiKey))
            }
            try await Self.expectEveryRecordOnce(collector, state)
            let logs = try await collector.logRecords()
            let (due, attempts) = (Self.records(logs, "due"), Self.records(logs, "attempt"))
            for ad in ["p1-a1", "p1-a2"] {
                for type in Ads.playbackTypes {
                    #expect(due["\(ad)/\(type)"]?.count == 1, "one due record of \(ad)/\(type)")
                    #expect(attempts["\(ad)/\(type)"]?.count == 1, "one attempt of \(ad)/\(type)")
                }
            }
            let attempt = try #require(attempts["p1-a1/impression"]?.first)
            #expect(attempt.attributes["beaconctl.outcome"] == .string("delivered"))
            #expect(attempt.attributes["url.domain"] == .string("127.0.0.1") && attempt.attributes["server.address"] == .string("127.0.0.1"))
            #expect(attempt.attributes["http.response.status_code"].map { if case .int = $0 { true } else { false } } == true)
            #expect(attempt.attributes["beaconctl.session.id"] == .string("e2e") && attempt.attributes["beaconctl.ad_break.id"] == .string("p1"))
            #expect(attempt.attributes["beaconctl.attempt"] == .int(1) && attempt.attributes["beaconctl.may_be_resend"] == .bool(false))
            #expect(attempt.severityNumber == 9 && attempt.eventName == "beaconctl.audit.attempt")
            #expect(attempt.timeUnixNano > 1_700_000_000_000_000_000 && attempt.observedTimeUnixNano == attempt.timeUnixNano)
            let impression = try #require(due["p1-a1/impression"]?.first)
            #expect(impression.attributes["beaconctl.window.start"] == .int(Self.adBreakStart))
            #expect(impression.attributes["beaconctl.timeline"] == .string("programDateTime"))
            #expect(impression.attributes["beaconctl.played"] != nil, "the played stretch that made it due")
            #expect(logs.contains { $0.attributes["beaconctl.record"] == .string("session-start") })
            #expect(logs.contains { $0.attributes["beaconctl.record"] == .string("session-end") }, "the drain sends the session's end")

            let resource = attempt.resourceAttributes
            #expect(resource["service.name"] == .string("beaconctl") && resource["beaconctl.instance"] == .string("living-room"))
            #expect(resource["service.version"]?.string?.isEmpty == false && resource["os.type"] == .string("linux"))
            #expect(resource["host.arch"] != nil && resource["deployment.environment"] == .string("e2e"))
            let instanceID = try #require(resource["service.instance.id"]?.string)
            let machineID = (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(instanceID.count == 32 && instanceID != machineID, "derived, never the machine id")

            let requests = try await collector.requests()
            #expect(requests.allSatisfy { $0.violations.isEmpty }, "\(requests.flatMap(\.violations))")
            #expect(requests.allSatisfy { $0.header("x-api-key") == Self.apiKey && $0.header("content-encoding") == "gzip" })
            #expect(requests.contains { $0.path == "/v1/metrics" } && requests.contains { $0.path == "/v1/logs" })
            let points = try await collector.metricPoints()
            let latency = points.first { $0.name == "beaconctl_beacon_latency_seconds" }
            #expect(latency?.type == .histogram && latency?.aggregationTemporality == .cumulative)
            let sent = points.filter { $0.name == "beaconctl_beacons_total" }
            #expect(!sent.isEmpty && sent.allSatisfy { $0.type == .sum && $0.isMonotonic == true && $0.aggregationTemporality == .cumulative })
        }
    }

    @Test func aSeekOverAnAdAndAWithdrawnAdEachSayWhyTheyNeverFired() async throws {
        let state = try TemporaryDirectory()
        try await withCollectorDouble { collector in
            try await withPlayback(
                arguments: Self.flags(collector, state: state),
                adBreaks: { service in
                    Self.adBreaks(service) + [Ads.adBreak(id: "p2", start: Ads.t0 + 120_000, userEvents: false, on: service)]
                }
            ) { service, daemon in
                try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 2 }
                // p2 is replaced while its time lies in the data range: its ad is withdrawn.
                service.serve(Ads.document(Self.adBreaks(service), rangeEnd: Ads.t0 + 200_000))
                try await daemon.waitForStatus("p2's ad withdrawn") { report in
                    report.events(ofAd: "p2-a1").allSatisfy { $0.heldBack == .withdrawn }
                }
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: Self.adBreakStart + 2_000)
                feed.jump(to: Self.adBreakStart + 30_000)
                feed.play(to: Self.adBreakStart + 32_000)
                let ticks = feed.takeLines()
                daemon.send(ticks)
                try await daemon.waitForStatus("the feed handled") { $0.counters.ticks == ticks.count }
                try await finish(daemon)
            }
            try await Self.expectEveryRecordOnce(collector, state)
            let notFired = Self.records(try await collector.logRecords(), "not-fired")
            for type in [TrackingEventType.firstQuartile, .midpoint, .thirdQuartile, .complete] {
                #expect(notFired["p1-a1/\(type)"]?.first?.attributes["beaconctl.not_fired"] == .string("seeked-over"), "p1-a1/\(type)")
            }
            for type in Ads.playbackTypes {
                #expect(notFired["p1-a2/\(type)"]?.first?.attributes["beaconctl.not_fired"] == .string("seeked-over"), "p1-a2/\(type)")
                #expect(notFired["p2-a1/\(type)"]?.first?.attributes["beaconctl.not_fired"] == .string("withdrawn"), "p2-a1/\(type)")
            }
            #expect(notFired["p1-a1/impression"] == nil, "the impression fired")
            #expect(notFired.values.joined().allSatisfy { $0.severityNumber == 13 })
        }
    }

    /// The collector is down for 30 s and the daemon is killed during it: after both are back,
    /// every record arrives once, and the beacons never waited.
    @Test func anOutageAndAKillNineLoseAndDoubleNothing() async throws {
        let state = try TemporaryDirectory()
        try await withCollectorDouble { collector in
            try await withAdService { service in
                service.serve(Ads.document(Self.adBreaks(service)))
                let mediaURL = "\(service.baseURL)/live/master.m3u8?sessid=e2e"
                let arguments = ["--media-url", mediaURL, "--stdin"] + Self.flags(collector, state: state)
                let down = ContinuousClock.now
                await collector.stop()
                var feed = TickFeed(from: Ads.t0)
                try await withDaemon(arguments) { daemon in
                    try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 1 }
                    feed.play(to: Self.adBreakStart + 12_500)
                    daemon.send(feed.takeLines())
                    try await eventually(timeout: .seconds(10), "the first ad's beacons while the collector is down") {
                        Ads.playbackTypes.allSatisfy { service.beaconCount(ad: "p1-a1", $0) == 1 }
                    }
                    try await daemon.waitForStatus("the telemetry retrying") { report in
                        report.reporters.first { $0.name == .telemetry }?.state == "retrying"
                    }
                    daemon.kill()
                    _ = try await daemon.waitForExit()
                }
                try await withDaemon(arguments) { daemon in
                    try await daemon.waitForStatus("the session resumed") { $0.session?.sessionID == "e2e" }
                    feed.play(to: Self.adBreakStart + 24_500)
                    daemon.send(feed.takeLines())
                    try await eventually(timeout: .seconds(10), "the second ad's beacons while the collector is down") {
                        service.beacons.count == 2 * Ads.playbackTypes.count
                    }
                    try await Task.sleep(until: down + .seconds(30))
                    try await collector.restart()
                    // The retries backed off meanwhile, to at most 60 s apart (with jitter).
                    try await Self.expectEveryRecordOnce(collector, state, within: .seconds(75))
                    try await finish(daemon)
                }
                try await Self.expectEveryRecordOnce(collector, state)
            }
        }
    }

    @Test func a503WithRetryAfterIsWaitedForAndA400DropsOnlyItsBatch() async throws {
        let state = try TemporaryDirectory()
        try await withCollectorDouble { collector in
            try await collector.script([.status(503, retryAfter: "2").only("/v1/logs"), .status(400).only("/v1/logs")])
            try await withPlayback(arguments: Self.flags(collector, state: state), adBreaks: Self.adBreaks) { service, daemon in
                try await Self.playBothAds(daemon, service)
                let report = try await daemon.waitForStatus("a batch dropped") { report in
                    (report.reporters.first { $0.name == .telemetry }?.counters["dropped"] ?? 0) > 0
                }
                let telemetry = try #require(report.reporters.first { $0.name == .telemetry })
                #expect((telemetry.counters["retries"] ?? 0) >= 1)
                try await finish(daemon)
            }
            let requests = try await collector.requests().filter { $0.path == "/v1/logs" }
            #expect(requests.prefix(3).map(\.status) == [503, 400, 200], "the 503 retried, the same batch refused, the next taken")
            let audit = try await Self.auditIDs(state)
            let taken = Set(try await collector.logRecords().compactMap { $0.attributes["beaconctl.record.id"]?.string })
            #expect(taken.isSubset(of: Set(audit)) && taken.count < audit.count, "the refused batch is not sent again")
        }
    }

    @Test func aCollectorThatNeverAnswersDelaysNoBeacon() async throws {
        let state = try TemporaryDirectory()
        try await withCollectorDouble { collector in
            try await collector.script([.hang, .hang, .hang, .hang])
            try await withPlayback(
                arguments: Self.flags(collector, state: state) + ["--http-timeout", "60", "--drain-timeout", "2"], adBreaks: Self.adBreaks
            ) { service, daemon in
                try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 1 }
                try await eventually("a request hangs at the collector") { try await collector.requests().contains { $0.status == nil } }
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: Self.adBreakStart + 24_500)
                daemon.send(feed.takeLines())
                try await eventually(timeout: .seconds(10), "every beacon while the collector hangs") {
                    service.beacons.count == 2 * Ads.playbackTypes.count
                }
                // The beacons went while the export still hung: nothing of it stood in their way.
                #expect(try await collector.requests().contains { $0.status == nil }, "the export still hangs")
                try await finish(daemon)
            }
        }
    }

    /// Ads enough for more than 64 KiB of audit: two records (due, attempt) of about 300 bytes per beacon.
    static let manyAds = 30

    @Test func theSizeBoundDropsTheOldestAndCountsThem() async throws {
        let state = try TemporaryDirectory()
        try await withCollectorDouble { collector in
            await collector.stop()
            let arguments = Self.flags(collector, state: state) + ["--audit-max-size", "65536"]
            try await withPlayback(
                arguments: arguments, adBreaks: { [Ads.adBreak(id: "big", start: Self.adBreakStart, ads: Self.manyAds, userEvents: false, on: $0)] }
            ) { service, daemon in
                try await daemon.waitForStatus("the metadata applied") { $0.adBreaks.count == 1 }
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: Self.adBreakStart + Milliseconds(Self.manyAds) * 12_000 + 500)
                daemon.send(feed.takeLines())
                try await eventually(timeout: .seconds(20), "every beacon") { service.beacons.count == Self.manyAds * Ads.playbackTypes.count }
                let report = try await daemon.waitForStatus("the oldest records dropped") { ($0.audit?.dropped ?? 0) > 0 }
                let audit = try #require(report.audit)
                #expect(audit.storage == "journal" && audit.bytes <= 65536 && audit.droppedUnexported == audit.dropped)
                try await collector.restart()
                let taken = try await Self.expectEveryRecordOnce(collector, state, exactly: false)
                // What the bound dropped before it was read never left: 2 records a beacon and the session's start were written.
                #expect(taken.count < Self.manyAds * Ads.playbackTypes.count * 2 + 1, "\(taken.count) records taken")
                try await finish(daemon)
            }
        }
    }
}
