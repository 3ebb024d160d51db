import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Testing

/// IAB VAST macros with the real binary: a signaling URL reaches the sink expanded as specified,
/// and a retry, or the resend after a kill -9 with the request in flight, is the identical URL.
@Suite(.timeLimit(.minutes(5))) struct MacroTests {
    let reliability = ReliabilityTests()
    var adBreakStart: Milliseconds { reliability.adBreakStart }
    var adDuration: Milliseconds { ReliabilityTests.adDuration }
    static let ifa = "6D92078A-8246-4BA4-AE5B-76104861E7DC"
    /// Every macro the daemon fills, one percent-encoded, and one it does not support.
    static let macros =
        "&ts=[TIMESTAMP]&cb=[CACHEBUSTING]&ap=[ADPLAYHEAD]&bp=%5BBREAKPOSITION%5D&ac=[ADCOUNT]&ps=[PODSEQUENCE]&ua=[DEVICEUA]"
        + "&ifa=[IFA]&it=[IFATYPE]&lat=[LIMITADTRACKING]&cp=[CONTENTPLAYHEAD]&mp=[MEDIAPLAYHEAD]&ec=[ERRORCODE]&r=[REASON]&pu=[PAGEURL]"

    /// What VAST leaves unencoded in a value.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// An ad break of one 8 s ad `<id>-a1` whose playback events signal `sink` with every macro.
    func adBreak(_ id: String, on sink: BeaconSink) -> AdBreak {
        let adID = "\(id)-a1"
        let ad = StandardAd.make(id: adID, start: adBreakStart, duration: adDuration, userTypes: []) { [sink.url(ad: adID, $0) + Self.macros] }
        return AdBreak(id: id, startTime: adBreakStart, duration: adDuration, ads: [ad])
    }

    /// The requests of `event` the sink received, as URIs.
    static func requests(_ sink: BeaconSink, ad: String, _ event: TrackingEventType) -> [String] {
        sink.received.map(\.uri).filter { $0.hasPrefix("/beacon?ad=\(ad)&cn=\(event.rawValue)&") }
    }

    static func query(_ uri: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in uri.split(separator: "?", maxSplits: 1).last?.split(separator: "&") ?? [] {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return values
    }

    /// The epoch milliseconds of an expanded `[TIMESTAMP]` (`2026-11-25T20%3A13%3A50.123%2B00%3A00`), or nil if it is not one.
    static func timestamp(_ encoded: String) -> Milliseconds? {
        let text = encoded.replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2B", with: "+")
        guard text.count == 29, text.hasSuffix("+00:00") else { return nil }
        let digits = text.split(whereSeparator: { "-T:.+".contains($0) }).compactMap { Int64($0) }
        guard digits.count == 9,
            let seconds = UTCTime.milliseconds(
                year: digits[0], month: digits[1], day: digits[2], hour: digits[3], minute: digits[4], second: digits[5])
        else { return nil }
        return seconds + digits[6]
    }

    @Test func macrosReachTheSinkExpandedAndARetrySendsTheIdenticalURL() async throws {
        try await withBeaconSink { sink in
            // The first request of a start URL is answered 503: a retry of another URL would get 503 again.
            sink.answer { uri, count in uri.contains("&cn=start&") && count == 1 ? .status(503) : .status(204) }
            try await withAdService { service in
                service.serve(Ads.document([adBreak("m", on: sink)]))
                let arguments = ["--media-url", reliability.mediaURL(service), "--stdin", "--ifa", Self.ifa, "--ifa-type", "rida", "--debug-tracking"]
                try await withDaemon(arguments) { daemon in
                    let version = try await daemon.waitUntilListening().version
                    let before = WallClock.now()
                    var feed = TickFeed(from: Ads.t0)
                    feed.play(to: adBreakStart + adDuration + 500)
                    daemon.send(feed.lines)
                    let report = try await daemon.waitForStatus(timeout: .seconds(30), "every event done") { report in
                        Ads.playbackTypes.allSatisfy { report.state(ofAd: "m-a1", $0) == .done }
                    }
                    let after = WallClock.now()
                    let starts = Self.requests(sink, ad: "m-a1", .start)
                    #expect(starts.count == 2 && starts[0] == starts[1], "the retry is the identical URL\n\(sink.summary)")
                    let quartile = try #require(Self.requests(sink, ad: "m-a1", .firstQuartile).first)
                    let values = Self.query(quartile)
                    let expected = [
                        "ap": "00%3A00%3A02.000", "bp": "2", "ac": "1", "ps": "1", "ua": "beaconctl%2F" + (version.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""),
                        "ifa": Self.ifa, "it": "rida", "lat": "0", "cp": "-2", "mp": "-2", "ec": "-2", "r": "-2", "pu": "-1",
                    ]
                    for (name, value) in expected { #expect(values[name] == value, "\(name) in \(quartile)") }
                    let cacheBuster = try #require(values["cb"])
                    #expect(cacheBuster.count == 8 && cacheBuster.allSatisfy(\.isNumber), "\(quartile)")
                    let occurred = try #require(Self.timestamp(values["ts"] ?? ""), "\(quartile)")
                    #expect((before - 1000)...(after + 1000) ~= occurred, "[TIMESTAMP] is when the event fired")
                    let impression = Self.query(try #require(Self.requests(sink, ad: "m-a1", .impression).first))
                    #expect(impression["cb"] != cacheBuster, "each beacon gets its own cache buster")
                    // Status: the URL as in the metadata and, per delivery, as sent.
                    let delivery = try #require(report.deliveries.first { $0.event == .firstQuartile })
                    #expect(delivery.url == sink.url(ad: "m-a1", .firstQuartile) + Self.macros)
                    #expect("http://127.0.0.1:\(sink.port)" + quartile == delivery.sentURL)
                    // The identifier is sent, never logged, even with --debug-tracking.
                    try await finish(daemon)
                    #expect(daemon.stderrLines.contains { $0.contains("[IFA]") && $0.contains("BEACON") })
                    #expect(!daemon.stderrLines.contains { $0.contains(Self.ifa) })
                }
            }
        }
    }

    @Test func afterKillNineTheRequestInFlightIsResentAsTheIdenticalURL() async throws {
        let state = try TemporaryDirectory()
        let environment = ["STATE_DIRECTORY": state.path]
        try await withBeaconSink { sink in
            // The first midpoint request is held 30 s: in flight when the daemon is killed.
            sink.answer { uri, count in
                uri.contains("&cn=midpoint&") && count == 1 ? await .delayed(.seconds(30), .status(204)) : .status(204)
            }
            try await withAdService { service in
                service.serve(Ads.document([adBreak("k", on: sink)]))
                let arguments = ["--media-url", reliability.mediaURL(service), "--stdin", "--ifa", Self.ifa]
                var feed = TickFeed(from: Ads.t0)
                try await withDaemon(arguments, environment: environment) { daemon in
                    try await daemon.waitUntilListening()
                    feed.play(to: adBreakStart + adDuration / 2 + 500)
                    daemon.send(feed.takeLines())
                    // The events before it done too: one still in flight at the kill would be resent as well.
                    try await daemon.waitForStatus("the events before the midpoint done and the midpoint in flight") { report in
                        [.impression, .start, .firstQuartile].allSatisfy { report.state(ofAd: "k-a1", $0) == .done }
                            && report.deliveries.contains { $0.event == .midpoint && $0.state == .inFlight }
                    }
                    try await eventually("the midpoint request at the sink") { Self.requests(sink, ad: "k-a1", .midpoint).count == 1 }
                    daemon.kill()
                    _ = try await daemon.waitForExit()
                }
                try await withDaemon(arguments, environment: environment) { daemon in
                    try await daemon.waitForStatus("the session resumed") { $0.session?.sessionID == "rel" }
                    feed.play(to: adBreakStart + adDuration + 500)
                    daemon.send(feed.takeLines())
                    let report = try await daemon.waitForStatus("every event done") { report in
                        Ads.playbackTypes.allSatisfy { report.state(ofAd: "k-a1", $0) == .done }
                    }
                    #expect(report.counters.beaconsResent == 1)
                    let midpoints = Self.requests(sink, ad: "k-a1", .midpoint)
                    #expect(midpoints.count == 2 && midpoints[0] == midpoints[1], "the resend is the identical URL\n\(sink.summary)")
                    #expect(Self.query(midpoints[0])["ifa"] == Self.ifa)
                    for type in Ads.playbackTypes where type != .midpoint {
                        #expect(Self.requests(sink, ad: "k-a1", type).count == 1, "\(type)\n\(sink.summary)")
                    }
                    try await finish(daemon)
                }
            }
        }
    }

    /// On a media-time session the content position is known: a mid-roll's beacons carry it, the
    /// pre-roll's 12 s left out (`Ads.adBreak`'s ads are 12 s long).
    @Test func aMediaTimeSessionFillsTheContentPlayhead() async throws {
        let midRoll: Milliseconds = 60_000
        try await withAdService { service in
            let ad = StandardAd.make(id: "mid-a1", start: midRoll, duration: 12_000, userTypes: []) {
                [service.beaconURL(ad: "mid-a1", $0, extra: "&cp=[CONTENTPLAYHEAD]&mp=[MEDIAPLAYHEAD]&bp=[BREAKPOSITION]")]
            }
            service.serve(
                MetadataDocument(
                    dataRange: DataRange(start: 0, end: 120_000),
                    adBreaks: [Ads.adBreak(id: "pre", start: 0, on: service), AdBreak(id: "mid", startTime: midRoll, duration: 12_000, ads: [ad])],
                    timeline: .mediaTime))
            try await withDaemon(["--media-url", "\(service.baseURL)/live/master.m3u8?sessid=e2e", "--stdin"]) { daemon in
                try await daemon.waitUntilListening()
                try await daemon.waitForStatus("the media-time document applied") { $0.timeline == .mediaTime }
                var feed = TickFeed(from: midRoll - 2_000, positions: true)
                feed.play(to: midRoll + 12_500)
                daemon.send(feed.lines)
                try await daemon.waitForStatus("the mid-roll complete") { $0.state(ofAd: "mid-a1", .complete) == .done }
                let complete = try #require(service.beacons(ad: "mid-a1", .complete).first?.query)
                let values = Self.query("?" + complete)
                // The content position when the complete fired: the mid-roll started 48 s into the content.
                #expect(values["cp"]?.hasPrefix("00%3A00%3A48.") == true, "\(complete)")
                #expect(values["mp"] == values["cp"], "\(complete)")
                #expect(values["bp"] == "2", "\(complete)")
                try await finish(daemon)
            }
        }
    }
}
