import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// Every published Harmonic document of `../shared/fixtures/realworld/harmonic/` played through
/// the real binary: times shifted to now, URLs pointed at the test's loopback service, ticks
/// covering every tracking event's window. Every time-based URL whose window was played, and
/// whose event starts inside its ad as described, fires exactly once; a verificationNotExecuted
/// goes with its ad's impression; user actions, companion, icon and other verification tracking
/// never fire from time; no document is refused.
@Suite(.timeLimit(.minutes(5))) struct HarmonicReplayTests {
    /// Where the documents are, nil when `../shared` is absent (a clone without the shared fixtures).
    static let directory: URL? = {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("../shared/fixtures/realworld/harmonic").standardized
        return FileManager.default.fileExists(atPath: directory.path) ? directory : nil
    }()

    static let documents: [String] = directory.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) }?
        .filter { $0.hasSuffix(".json") }.sorted() ?? []

    /// The host the published documents' URLs were rewritten to.
    static let publishedHost = "http://127.0.0.1:4647"

    /// Playback types, spelled in lower case: the documents' own spelling is matched whatever its case.
    static let playbackTypes: Set<String> = [
        "impression", "start", "firstquartile", "midpoint", "thirdquartile", "complete", "creativeview", "progress", "loaded",
        "breakstart", "breakend",
    ]

    @Test(.enabled(if: directory != nil, "skipped: ../shared/fixtures/realworld/harmonic is absent (a clone without the shared fixtures)"))
    func everyDocumentFiresExactlyItsPlayedTimeBasedURLsOnce() async throws {
        #expect(Self.documents.count >= 6, "\(Self.documents)")
        for name in Self.documents {
            try await replay(name)
        }
    }

    private func replay(_ name: String) async throws {
        let published = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.directory!.appendingPathComponent(name)))
        let firstStart = try #require(Self.times(in: published).min())
        // The first ad break starts 5 s from now.
        let shift = Milliseconds(Date().timeIntervalSince1970 * 1000) + 5_000 - firstStart
        // Every published path answers 204 (the published URLs are not all on the sink's path); the metadata is served.
        try await withAdService(route: { $0.path.hasSuffix("/metadata") ? nil : .status(204) }) { service in
            let document = Self.rewritten(published, shift: shift, host: service.baseURL)
            let body = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
            service.serve(body: body)
            let expected = Self.expectedURIs(in: document, host: service.baseURL)
            let windows = Self.eventWindows(in: document)
            let mediaURL = "\(service.baseURL)/live/master.m3u8?sessid=harmonic"
            try await withDaemon(["--media-url", mediaURL, "--stdin", "--metadata-interval", "0.5"]) { daemon in
                try await daemon.waitUntilListening()
                let applied = try await daemon.waitForStatus("\(name) applied") { !$0.adBreaks.isEmpty }
                // Companion, icon and verification tracking is listed under its ad, in both views.
                let listed = Self.attachedCount(in: document)
                #expect(applied.adBreaks.flatMap(\.ads).map(\.attachedTracking.count).reduce(0, +) == listed, "\(name)")
                let human = try await runBeaconctl(["status", "--socket", daemon.socketPath]).stdout
                #expect(human.split(separator: "\n").count { $0.hasPrefix("    listed ") } == listed, "\(name)\n\(human)")
                var feed = TickFeed(from: firstStart + shift - 2_000)
                feed.play(to: windows.upperBound + 1_000)
                daemon.send(feed.lines)
                try await daemon.waitForStatus(timeout: .seconds(30), "\(name): every tick handled") {
                    $0.counters.ticks == feed.tickCount
                }
                let report = try await daemon.status()
                #expect(report.counters.metadataErrors == 0, "\(name): \(report.lastError ?? "")")
                try await finish(daemon)
            }
            let beacons = service.received.filter { !$0.path.hasSuffix("/metadata") && !$0.path.hasSuffix(".m3u8") }.map(\.uri)
            let counts = Dictionary(beacons.map { ($0, 1) }, uniquingKeysWith: +)
            for uri in expected {
                #expect(counts[uri] == 1, "\(name): \(uri) requested \(counts[uri] ?? 0) times")
            }
            for (uri, count) in counts where !expected.contains(uri) {
                Issue.record("\(name): \(uri) requested \(count) times, never due")
            }
            #expect(!expected.isEmpty, "\(name)")
        }
    }

    /// The keys of the times the shift moves.
    static let timeKeys: Set<String> = ["start", "end", "startTime", "startDateTime"]

    /// Every start time in `value`.
    static func times(in value: Any) -> [Milliseconds] {
        var times: [Milliseconds] = []
        visit(value) { key, number in
            if key == "startTime" { times.append(number) }
            return number
        }
        return times
    }

    /// `value` with every time moved by `shift` and every URL of the published host on `host`.
    static func rewritten(_ value: Any, shift: Milliseconds, host: String) -> Any {
        replacingHost(visit(value) { _, number in number + shift }, with: host)
    }

    private static func replacingHost(_ value: Any, with host: String) -> Any {
        switch value {
        case let text as String where text.hasPrefix(publishedHost): host + text.dropFirst(publishedHost.count)
        case let list as [Any]: list.map { replacingHost($0, with: host) }
        case let object as [String: Any]: object.mapValues { replacingHost($0, with: host) }
        default: value
        }
    }

    /// `value` with each time (a number under one of ``timeKeys``) passed through `transform`.
    @discardableResult
    private static func visit(_ value: Any, key: String = "", _ transform: (String, Milliseconds) -> Milliseconds) -> Any {
        switch value {
        case let list as [Any]: return list.map { visit($0, key: key, transform) }
        case let object as [String: Any]:
            return Dictionary(uniqueKeysWithValues: object.map { ($0, visit($1, key: $0, transform)) })
        case let number as NSNumber where timeKeys.contains(key):
            return NSNumber(value: transform(key, number.int64Value))
        default: return value
        }
    }

    /// The ads of a document, as JSON objects.
    private static func ads(in document: Any) -> [[String: Any]] {
        ((document as? [String: Any])?["adBreaks"] as? [[String: Any]] ?? []).flatMap { $0["ads"] as? [[String: Any]] ?? [] }
    }

    /// From the first event's start to the last event's window end, over every list of tracking events.
    static func eventWindows(in document: Any) -> ClosedRange<Milliseconds> {
        var starts: [Milliseconds] = []
        var ends: [Milliseconds] = []
        for ad in ads(in: document) {
            for event in ad["trackingEvents"] as? [[String: Any]] ?? [] {
                let start = (event["startTime"] as? NSNumber)?.int64Value ?? 0
                starts.append(start)
                ends.append(start + max((event["duration"] as? NSNumber)?.int64Value ?? 0, 1_000))
            }
        }
        return (starts.min() ?? 0)...(ends.max() ?? 0)
    }

    /// How many tracking entries of companion ads, icons (view and click) and verifications (but
    /// verificationNotExecuted, which goes with the impression) the document holds.
    static func attachedCount(in document: Any) -> Int {
        ads(in: document).map { ad in
            let companions = ((ad["companionAds"] as? [String: Any])?["companion"] as? [[String: Any]] ?? [])
                .map { ($0["trackingEvents"] as? [Any])?.count ?? 0 }.reduce(0, +)
            let icons = (ad["icons"] as? [[String: Any]] ?? [])
                .map { ($0["iconViewTracking"] == nil ? 0 : 1) + ((($0["iconClicks"] as? [String: Any])?["iconClickTracking"]) == nil ? 0 : 1) }
                .reduce(0, +)
            let verifications = (ad["adVerifications"] as? [[String: Any]] ?? []).flatMap { $0["trackingEvents"] as? [[String: Any]] ?? [] }
                .count { ($0["event"] as? String)?.lowercased() != "verificationnotexecuted" }
            return companions + icons + verifications
        }.reduce(0, +)
    }

    /// The request URIs due, each once: the time-based events that start inside their ad as
    /// described (to 500 ms past its end when it has a duration), and the verificationNotExecuted
    /// of each ad whose impression is among them, `[REASON]` filled in with 2.
    static func expectedURIs(in document: Any, host: String) -> Set<String> {
        var urls: Set<String> = []
        for ad in ads(in: document) {
            let adStart = (ad["startTime"] as? NSNumber)?.int64Value ?? 0
            let adDuration = (ad["duration"] as? NSNumber)?.int64Value ?? 0
            var impressed = false
            for event in ad["trackingEvents"] as? [[String: Any]] ?? [] {
                let type = (event["event"] as? String ?? "").lowercased()
                let start = (event["startTime"] as? NSNumber)?.int64Value ?? 0
                let confirmed = adDuration <= 0 || (adStart...(adStart + adDuration + 500)).contains(start)
                guard playbackTypes.contains(type), confirmed else { continue }
                impressed = impressed || type == "impression"
                urls.formUnion(event["signalingUrls"] as? [String] ?? [])
            }
            guard impressed else { continue }
            for verification in ad["adVerifications"] as? [[String: Any]] ?? [] {
                for event in verification["trackingEvents"] as? [[String: Any]] ?? []
                where (event["event"] as? String)?.lowercased() == "verificationnotexecuted" {
                    urls.formUnion((event["signalingUrls"] as? [String] ?? []).map { $0.replacingOccurrences(of: "[REASON]", with: "2") })
                }
            }
        }
        return Set(urls.map { String($0.dropFirst(host.count)) })
    }
}
