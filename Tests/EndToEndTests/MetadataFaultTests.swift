import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Synchronization
import Testing

/// The metadata service misbehaving in every way the network and a server can: the daemon keeps
/// the last good metadata, counts and shows each failure, backs off, recovers when the service
/// does, never crashes, and its ticks keep firing beacons meanwhile. The metadata and the beacon
/// sink are two services, so the metadata one can go down while beacons still land.
@Suite(.timeLimit(.minutes(5))) struct MetadataFaultTests {
    typealias Response = HTTPServer.Response

    static let adBreakStart = Ads.t0 + 2_000
    static let trackingPath = "/live/metadata"
    /// The largest metadata body the daemon takes.
    static let cap = DaemonConfiguration(version: "test").maxMetadataBytes

    /// One way for the metadata service to fail, and what the daemon's `lastError` then says.
    struct Fault: Sendable, CustomStringConvertible {
        var name: String
        var answer: AdService.MetadataAnswer
        var reasons: [String]
        var description: String { name }

        init(_ name: String, _ reasons: String..., answer: @escaping AdService.MetadataAnswer) {
            self.name = name
            self.reasons = reasons
            self.answer = answer
        }
    }

    /// A document whose one event, `start` of ad p1-a1 in ad break p1, has `startTime` and
    /// `duration` as written (JSON text): a way to serve absurd numbers in a known place.
    static func document(startTime: String = "\(adBreakStart)", duration: String = "0") -> String {
        #"{"dataRange": {"start": \#(Ads.t0), "end": \#(adBreakStart + 12_000)}, "adBreaks": [{"id": "p1", "startTime": \#(adBreakStart), "duration": 12000, "#
            + #""ads": [{"id": "p1-a1", "startTime": \#(adBreakStart), "duration": 12000, "trackingEvents": [{"event": "start", "startTime": \#(startTime), "duration": \#(duration), "signalingUrls": []}]}]}]}"#
    }

    /// The faults served over HTTP, in groups that run side by side, each against its own daemon.
    enum Group: String, CaseIterable, CustomStringConvertible {
        case statuses, documents, transfers
        var description: String { rawValue }

        func faults(good: String) -> [Fault] {
            switch self {
            case .statuses:
                [
                    Fault("404", "metadata: HTTP 404") { .status(404) },
                    Fault("500", "metadata: HTTP 500") { .text("internal error", status: 500) },
                    Fault("redirect loop", "metadata: too many redirects") { .redirect(to: MetadataFaultTests.trackingPath + "?sessid=faults") },
                    Fault("redirect to file", "metadata: unsupported scheme 'file'") { .redirect(to: "file:///etc/passwd") },
                    Fault("redirect to ftp", "metadata: unsupported scheme 'ftp'") { .redirect(to: "ftp://127.0.0.1/metadata") },
                ]
            case .documents:
                [
                    Fault("truncated JSON", "metadata: rejected: not valid JSON") { .json(String(good.prefix(good.utf8.count / 2))) },
                    Fault("not JSON", "metadata: rejected: not valid JSON") { .text("<html><body>Service Unavailable</body></html>") },
                    Fault("wrong types", "rejected: ad break p1, ad p1-a1, event start: duration is not a number of milliseconds") {
                        .json(MetadataFaultTests.document(duration: #""12""#))
                    },
                    Fault("negative duration", "rejected: ad break p1, ad p1-a1, event start: duration -500 ms is negative") {
                        .json(MetadataFaultTests.document(duration: "-500"))
                    },
                    Fault("year 9999", "rejected: ad break p1, ad p1-a1, event start: startTime 253402300799000 (9999-12-31T23:59:59.000Z) is outside") {
                        .json(MetadataFaultTests.document(startTime: "253402300799000"))
                    },
                    Fault("NaN string", "rejected: ad break p1, ad p1-a1, event start: startTime is not a number of milliseconds") {
                        .json(MetadataFaultTests.document(startTime: #""NaN""#))
                    },
                ]
            case .transfers:
                [
                    Fault("body over the cap", "metadata: response larger than \(MetadataFaultTests.cap) bytes") { .endless([UInt8](repeating: 0x20, count: 65_536)) },
                    // A valid document, one byte past the cap: the memory bound holds whatever the body says.
                    Fault("document over the cap", "metadata: response larger than \(MetadataFaultTests.cap) bytes") {
                        let padding = MetadataFaultTests.cap + 1 - good.utf8.count - #"{"padding": "", "#.utf8.count + 1
                        return .json(#"{"padding": ""# + String(repeating: "x", count: padding) + #"", "# + good.dropFirst())
                    },
                    Fault("body cut off", "metadata: transfer failed after the host answered") { .cutOff(Array(good.utf8), after: 100) },
                    Fault("503 with Retry-After", "metadata: HTTP 503 (Retry-After 2.0s)") {
                        Response(status: 503, headers: [("Retry-After", "2")])
                    },
                ]
            }
        }
    }

    /// Runs `body` with a beacon sink, a metadata service serving ad break p1 (one 12 s ad whose
    /// beacons go to the sink) and a daemon polling it every 0.2 s plus `arguments`.
    func withFaultyMetadata(
        arguments: [String] = [], _ body: (_ metadata: AdService, _ sink: AdService, _ daemon: DaemonProcess) async throws -> Void
    ) async throws {
        try await withAdService { sink in
            try await withAdService { metadata in
                metadata.serve(Ads.document([Ads.adBreak(id: "p1", start: Self.adBreakStart, on: sink)]))
                let mediaURL = "\(metadata.baseURL)/live/master.m3u8?sessid=faults"
                try await withDaemon(["--media-url", mediaURL, "--stdin", "--metadata-interval", "0.2"] + arguments) { daemon in
                    try await daemon.waitForStatus("the good metadata") { $0.adBreaks.map(\.id) == ["p1"] }
                    try await body(metadata, sink, daemon)
                }
            }
        }
    }

    /// Serves `fault` until the daemon shows it failed: a new error counted, `lastError` naming it,
    /// the failures in a row and the next attempt shown, and the last good ad break kept.
    @discardableResult
    func expectSurvives(_ fault: Fault, from metadata: AdService, _ daemon: DaemonProcess) async throws -> StatusReport {
        let before = try await daemon.status().counters.metadataErrors
        metadata.answerMetadata(fault.answer)
        let report = try await daemon.waitForStatus(timeout: .seconds(15), "\(fault) counted and shown") { report in
            report.counters.metadataErrors > before && fault.reasons.contains { report.lastError?.contains($0) == true }
                && report.metadataFailures >= 1 && report.nextMetadataAt != nil
        }
        #expect(report.adBreaks.map(\.id) == ["p1"], "\(fault)")
        #expect(report.events(ofAd: "p1-a1").count == Ads.playbackTypes.count + Ads.userTypes.count, "\(fault): the ad kept whole")
        #expect(report.state == "playing" || report.state == "ready", "\(fault)")
        return report
    }

    /// Serves the good document again and waits for the daemon to take it: the failures in a row are over.
    func recover(_ metadata: AdService, good: String, _ daemon: DaemonProcess, after fault: Fault) async throws {
        metadata.serve(body: good)
        try await daemon.waitForStatus(timeout: .seconds(15), "recovered from \(fault)") { $0.metadataFailures == 0 }
    }

    /// Plays through ad break p1 and expects every playback beacon at the sink.
    func playThroughTheAdBreak(_ daemon: DaemonProcess, sink: AdService) async throws {
        var feed = TickFeed(from: Ads.t0)
        feed.play(to: Self.adBreakStart + 14_000)
        daemon.send(feed.lines)
        try await daemon.waitForStatus("every playback event done") { report in
            Ads.playbackTypes.allSatisfy { report.state(ofAd: "p1-a1", $0) == .done }
        }
    }

    @Test(arguments: Group.allCases)
    func eachFaultKeepsTheLastGoodMetadata(group: Group) async throws {
        try await withFaultyMetadata { metadata, sink, daemon in
            let good = Ads.document([Ads.adBreak(id: "p1", start: Self.adBreakStart, on: sink)]).encodedJSON()
            let faults = group.faults(good: good)
            for fault in faults {
                try await expectSurvives(fault, from: metadata, daemon)
                if fault.name == "503 with Retry-After" {
                    try await expectRetryAfterHonoured(metadata, daemon)
                }
                try await recover(metadata, good: good, daemon, after: fault)
            }
            let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
            #expect(human.stdout.contains("last error    metadata: "), "\(human.stdout)")

            // The last fault once more, for good: the ad break plays out from the metadata kept.
            let last = try #require(faults.last)
            let report = try await expectSurvives(last, from: metadata, daemon)
            #expect(report.counters.metadataErrors >= faults.count + 1)
            try await playThroughTheAdBreak(daemon, sink: sink)
            #expect(try await daemon.status().metadataFailures >= 1, "the fault still served while the beacons fired")
            try await finish(daemon)
            expectEachPlaybackEventOnce(sink, ads: ["p1-a1"])
        }
    }

    /// A 503 asking to wait 2 s: the next request comes no sooner, whatever the backoff drew (at most 1 s).
    func expectRetryAfterHonoured(_ metadata: AdService, _ daemon: DaemonProcess) async throws {
        let failedAt = try #require(metadata.metadataRequests.last?.at)
        try await eventually(timeout: .seconds(15), "the request after the 503") { metadata.metadataRequests.last?.at != failedAt }
        let next = try #require(metadata.metadataRequests.last?.at)
        #expect(failedAt.duration(to: next) >= .milliseconds(1_900))
    }

    /// Faults below HTTP, with a 1 s HTTP timeout: unknown host, a server that never answers or
    /// drips its body, and the metadata service down while the ad break plays.
    @Test func networkFaultsKeepTheLastGoodMetadata() async throws {
        try await withFaultyMetadata(arguments: ["--http-timeout", "1"]) { metadata, sink, daemon in
            let good = Ads.document([Ads.adBreak(id: "p1", start: Self.adBreakStart, on: sink)]).encodedJSON()
            let faults = [
                // Offline, a resolver may also wait for its DNS server until the timeout. The redirect
                // was answered: what fails after it is the URL's, not its host's.
                Fault("DNS failure", "metadata: transfer failed after the host answered: Couldn't resolve host name", "metadata: timed out") {
                    .redirect(to: "http://metadata.invalid\(Self.trackingPath)?sessid=faults")
                },
                Fault("never answers", "metadata: timed out") { await .noAnswer() },
                Fault("slow drip", "metadata: timed out") { .drip(Array(good.utf8), every: .seconds(1)) },
            ]
            for fault in faults {
                try await expectSurvives(fault, from: metadata, daemon)
                try await recover(metadata, good: good, daemon, after: fault)
            }

            // The service goes away: connection refused, and the ad break still plays out.
            let port = metadata.server.port
            await metadata.stop()
            let errors = try await daemon.status().counters.metadataErrors
            let report = try await daemon.waitForStatus(timeout: .seconds(15), "connection refused counted and shown") { report in
                report.counters.metadataErrors > errors
                    && report.lastError?.contains("metadata: connection failed: Couldn't connect to server") == true
            }
            #expect(report.adBreaks.map(\.id) == ["p1"])
            try await playThroughTheAdBreak(daemon, sink: sink)

            // Back on the same port: the daemon finds it again on its own.
            try await withAdService(port: port) { restarted in
                restarted.serve(body: good)
                try await daemon.waitForStatus(timeout: .seconds(70), "recovered from connection refused") { $0.metadataFailures == 0 }
            }
            try await finish(daemon)
            expectEachPlaybackEventOnce(sink, ads: ["p1-a1"])
        }
    }

    /// A request hanging (30 s HTTP timeout) holds no tick: the ad break's beacons fire while it hangs.
    @Test func ticksFireWhileAMetadataRequestHangs() async throws {
        try await withFaultyMetadata(arguments: ["--http-timeout", "30"]) { metadata, sink, daemon in
            let held = Atomic(0)
            metadata.answerMetadata {
                held.add(1, ordering: .relaxed)
                return await .noAnswer()
            }
            try await eventually("a metadata request hanging") { held.load(ordering: .relaxed) == 1 }
            let hanging = try await daemon.status()
            try await playThroughTheAdBreak(daemon, sink: sink)
            let after = try await daemon.status()
            #expect(after.counters.metadataErrors == hanging.counters.metadataErrors, "the request still hangs: nothing failed")
            #expect(after.counters.metadataFetches == hanging.counters.metadataFetches, "no other request began")
            #expect(after.nextMetadataAt == nil, "a request is under way")
            #expect(held.load(ordering: .relaxed) == 1)
            try await finish(daemon)
            expectEachPlaybackEventOnce(sink, ads: ["p1-a1"])
        }
    }
}
