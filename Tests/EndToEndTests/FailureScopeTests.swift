import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Testing

/// Failures belong to what failed: one bad URL on a shared ad-server host never holds back the
/// host's other URLs. The real binary against a beacon sink where one URL misbehaves.
@Suite(.timeLimit(.minutes(5))) struct FailureScopeTests {
    let reliability = ReliabilityTests()
    var adBreakStart: Milliseconds { reliability.adBreakStart }
    let adDuration: Milliseconds = 8_000

    /// One 8 s ad on `sink`, each event with its own URL, plus what `extra` adds to an event.
    func ad(_ id: String, on sink: BeaconSink, extra: @escaping (TrackingEventType) -> [String] = { _ in [] }) -> AdBreak {
        let ad = StandardAd.make(id: id, start: adBreakStart, duration: adDuration, userTypes: []) { [sink.url(ad: id, $0)] + extra($0) }
        return AdBreak(id: "p-\(id)", startTime: adBreakStart, duration: adDuration, ads: [ad])
    }

    /// Plays the ad up to its midpoint, waits until its bad URL (the one ending in `bad`) failed
    /// once, then plays it to its end and expects the third quartile and complete, on the same
    /// host, delivered within seconds, and the bad URL retried on its own.
    func expectTheRestDeliveredPromptly(
        adID: String, adBreak: AdBreak, sink: BeaconSink, arguments: [String] = [], bad: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await withAdService { service in
            service.serve(Ads.document([adBreak]))
            try await withDaemon(["--media-url", reliability.mediaURL(service), "--stdin"] + arguments) { daemon in
                try await daemon.waitUntilListening()
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: adBreakStart + adDuration / 2 + 500)
                daemon.send(feed.takeLines())
                try await daemon.waitForStatus(timeout: .seconds(20), "the bad midpoint URL failed once") { report in
                    report.deliveries.contains { $0.url.hasSuffix(bad) && $0.state == .due && $0.attempts >= 1 }
                }
                feed.play(to: adBreakStart + adDuration + 500)
                daemon.send(feed.takeLines())
                let report = try await daemon.waitForStatus(timeout: .seconds(15), "the third quartile and complete delivered") { report in
                    [.thirdQuartile, .complete].allSatisfy { report.state(ofAd: adID, $0) == .done }
                }
                #expect(report.state(ofAd: adID, .midpoint) == .connecting, "the bad URL retries on its own", sourceLocation: sourceLocation)
                for type in Ads.playbackTypes {
                    #expect(sink.count(ad: adID, type) == 1, "\(type)\n\(sink.summary)", sourceLocation: sourceLocation)
                }
                try await daemon.waitForStatus(timeout: .seconds(30), "the bad URL retried") { report in
                    report.deliveries.contains { $0.url.hasSuffix(bad) && $0.attempts >= 2 }
                }
                daemon.kill()
                _ = try await daemon.waitForExit()
            }
        }
    }

    @Test func aURLAnswering500DelaysNoOtherURLOnItsHost() async throws {
        try await withBeaconSink { sink in
            sink.answer { uri, _ in uri.hasSuffix("&bad=1") ? .status(500) : .status(204) }
            let adBreak = ad("five", on: sink) { $0 == .midpoint ? [sink.url(ad: "five", .midpoint) + "&bad=1"] : [] }
            try await expectTheRestDeliveredPromptly(adID: "five", adBreak: adBreak, sink: sink, bad: "&bad=1")
        }
    }

    /// A redirect to a host that accepts the connection and never answers: that URL times out, the
    /// host that redirected is fine.
    @Test func aRedirectToAHostThatNeverAnswersDelaysNoOtherURL() async throws {
        try await withBeaconSink { blackHole in
            blackHole.answer { _, _ in await .noAnswer() }
            try await withBeaconSink { sink in
                sink.answer { uri, _ in uri.hasSuffix("&moved=1") ? .redirect(to: blackHole.url(ad: "moved", .midpoint)) : .status(204) }
                let adBreak = ad("moved", on: sink) { $0 == .midpoint ? [sink.url(ad: "moved", .midpoint) + "&moved=1"] : [] }
                try await expectTheRestDeliveredPromptly(adID: "moved", adBreak: adBreak, sink: sink, arguments: ["--http-timeout", "3"], bad: "&moved=1")
            }
        }
    }

    /// Seventeen beacons to one host, one of them answering 500: the sixteen others leave at once,
    /// each once, while the bad one retries.
    @Test func sixteenBeaconsLeaveWhileTheSeventeenthAnswers500() async throws {
        try await withBeaconSink { sink in
            sink.answer { uri, _ in uri.contains("cn=impression") ? .status(500) : .status(204) }
            let urls = (1...16).map { sink.url(ad: "many", .firstQuartile) + "&n=\($0)" }
            let ad = StandardAd.make(id: "many", start: adBreakStart, duration: adDuration, userTypes: []) { type in
                switch type {
                case .impression: [sink.url(ad: "many", .impression)]
                case .firstQuartile: urls
                default: []
                }
            }
            try await withAdService { service in
                service.serve(Ads.document([AdBreak(id: "p-many", startTime: adBreakStart, duration: adDuration, ads: [ad])]))
                try await withDaemon(["--media-url", reliability.mediaURL(service), "--stdin"]) { daemon in
                    try await daemon.waitUntilListening()
                    var feed = TickFeed(from: Ads.t0)
                    feed.play(to: adBreakStart + 500)
                    daemon.send(feed.takeLines())
                    try await eventually(timeout: .seconds(20), "the impression answered 500") { sink.count(ad: "many", .impression) >= 1 }
                    feed.play(to: adBreakStart + adDuration / 4 + 500)
                    daemon.send(feed.takeLines())
                    let report = try await daemon.waitForStatus(timeout: .seconds(15), "the sixteen delivered") { report in
                        report.state(ofAd: "many", .firstQuartile) == .done
                    }
                    let sixteen = report.deliveries.filter { $0.event == .firstQuartile }
                    #expect(sixteen.count == 16 && sixteen.allSatisfy { $0.state == .delivered && $0.attempts == 1 })
                    for url in urls {
                        let uri = String(url.dropFirst("http://127.0.0.1:\(sink.port)".count))
                        #expect(sink.received.count { $0.uri == uri } == 1, "\(uri)\n\(sink.summary)")
                    }
                    #expect(report.state(ofAd: "many", .impression) == .connecting)
                    daemon.kill()
                    _ = try await daemon.waitForExit()
                }
            }
        }
    }
}
