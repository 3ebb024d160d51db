import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The human `beaconctl status`: the retry lines show only while something is being retried.
@Suite(.timeLimit(.minutes(2))) struct StatusViewTests {
    static func report(state: String) -> StatusReport {
        var counters = StatusReport.Counters()
        counters.metadataFetches = 12
        counters.metadataErrors = 3
        return StatusReport(
            version: "0.1.0", state: state, session: nil, playhead: nil, dataRange: nil, adBreaks: [], counters: counters,
            lastError: "metadata: HTTP 500")
    }

    @Test func showsTheAdBreakAndAdThePlayheadIsInOnOneLine() {
        var report = Self.report(state: "playing")
        report.playhead = Fixture.t0 + 17_000
        let adBreak = AdBreakSummary(id: "pod-1", index: 2, startTime: Fixture.t0 + 5_000, duration: 30_000, contentOffset: 60)
        report.adPlacement = AdPlacement(
            adBreak: adBreak,
            ad: AdSummary(id: "7", adBreakID: "pod-1", position: 2, startTime: Fixture.t0 + 15_000, duration: 15_000, title: "Polar bear"),
            offsetInAdBreak: 12_000, offsetInAd: 2_000)
        var lines = StatusView.render(report).split(separator: "\n")
        #expect(lines.contains(#"in ad break   pod-1 (#2) +12.0s of 30.0s   ad 7 (2 in the break) +2.0s of 15.0s   "Polar bear""#))
        report.adPlacement = AdPlacement(adBreak: adBreak, offsetInAdBreak: 12_000)
        lines = StatusView.render(report).split(separator: "\n")
        #expect(lines.contains("in ad break   pod-1 (#2) +12.0s of 30.0s   between ads"))
        report.adPlacement = nil
        #expect(!StatusView.render(report).contains("in ad break"))
    }

    @Test func nothingIsBeingRetried() {
        let lines = StatusView.render(Self.report(state: "ready")).split(separator: "\n")
        #expect(lines.contains("metadata      12 fetches   3 errors"))
        #expect(!lines.contains { $0.hasPrefix("session init") })
        #expect(lines.contains("session       none (waiting for 'load <media-url>')"))
    }

    @Test func failingMetadataShowsTheFailuresInARowAndTheNextTry() {
        var report = Self.report(state: "playing")
        report.metadataFailures = 3
        report.nextMetadataAt = Fixture.t0
        let lines = StatusView.render(report).split(separator: "\n")
        #expect(lines.contains("metadata      12 fetches   3 errors   3 failed in a row, next try at 2023-01-31T03:25:34.076Z"))
        #expect(lines.contains("last error    metadata: HTTP 500"))
        // While the request is under way there is no next try to show.
        report.nextMetadataAt = nil
        #expect(StatusView.render(report).split(separator: "\n").contains("metadata      12 fetches   3 errors   3 failed in a row"))
    }

    @Test func aRetriedInitShowsItsFailuresAndTheNextAttempt() {
        var report = Self.report(state: "initializing")
        report.initFailures = 2
        report.nextInitAt = Fixture.t0
        report.lastError = "session init: connection failed: Couldn't connect to server"
        let lines = StatusView.render(report).split(separator: "\n")
        #expect(lines.prefix(3).last == "session init  2 attempts failed in a row, next try at 2023-01-31T03:25:34.076Z")
        #expect(lines.contains("session       none yet (session init under way)"))
        #expect(lines.contains("last error    session init: connection failed: Couldn't connect to server"))
    }
}

/// The human `beaconctl status`: retries, re-sends, the backlog, the journal and each delivery.
@Suite(.timeLimit(.minutes(2))) struct StatusViewDeliveryTests {
    static let adBreak = Fixture.adBreak(id: "p1", start: Fixture.t0, userEvents: false)

    static func delivery(_ type: TrackingEventType, _ state: BeaconDelivery.State, attempts: Int, status: Int? = nil, error: String? = nil)
        -> StatusReport.Delivery
    {
        StatusReport.Delivery(
            BeaconDelivery(
                key: BeaconDelivery.Key(
                    sessionKey: "s", adBreakID: "p1", adID: "p1", event: type, eventStart: Fixture.t0, url: Fixture.url(ad: "p1", type), occurrence: 0),
                reference: EventReference(adBreakID: "p1", adIndex: 0, eventIndex: 0), state: state, attempts: attempts, lastStatus: status,
                lastError: error, dueAt: Fixture.t0, nextAttemptAt: Fixture.t0 + 2_000), wallOffset: 0)
    }

    func render(deliveries: [StatusReport.Delivery], journal: StatusReport.Journal, journalErrors: Int = 0) -> [String] {
        var counters = StatusReport.Counters()
        counters.beaconsRetried = 4
        counters.beaconsResent = 1
        counters.journalErrors = journalErrors
        let report = StatusReport(
            version: "v", state: "playing", session: nil, playhead: Fixture.t0 + 1_000, dataRange: nil, adBreaks: [Self.adBreak],
            counters: counters, deliveries: deliveries, journal: journal)
        return StatusView.render(report).split(separator: "\n").map(String.init)
    }

    @Test func showsRetriesResendsAndTheBacklog() {
        let lines = render(
            deliveries: [Self.delivery(.impression, .delivered, attempts: 1), Self.delivery(.start, .due, attempts: 2, status: 503, error: "HTTP 503")],
            journal: StatusReport.Journal(state: .ok))
        #expect(lines.contains("beacons       0 sent   0 failed   4 retried   1 re-sent"))
        #expect(lines.contains("backlog       1 beacon deliveries due or in flight"))
        #expect(lines.contains("journal       ok"))
    }

    @Test func detailsOnlyTheDeliveriesThatDidNotGoThroughAtOnce() {
        let lines = render(
            deliveries: [
                Self.delivery(.impression, .delivered, attempts: 1), Self.delivery(.start, .due, attempts: 2, status: 503, error: "HTTP 503"),
                Self.delivery(.midpoint, .failed, attempts: 1, status: 404, error: "HTTP 404, not retried"),
            ],
            journal: StatusReport.Journal(state: .ok))
        let details = lines.filter { $0.hasPrefix("      ") }
        #expect(details.count == 2)
        #expect(
            details[0]
                == "      due        attempts 2   last HTTP 503   next \(UTCTime.format(Fixture.t0 + 2_000))   HTTP 503   \(Fixture.url(ad: "p1", .start))")
        #expect(details[1] == "      failed     attempts 1   last HTTP 404   HTTP 404, not retried   \(Fixture.url(ad: "p1", .midpoint))")
    }

    @Test func saysLoudlyWhenTheJournalIsUnavailable() {
        let lines = render(deliveries: [], journal: StatusReport.Journal(state: .unavailable, error: "disk full"), journalErrors: 3)
        #expect(lines.contains("journal       UNAVAILABLE, working from memory: disk full (3 errors)"))
        #expect(!lines.contains { $0.hasPrefix("backlog") })
        #expect(render(deliveries: [], journal: StatusReport.Journal(state: .off)).contains("journal       off (memory only)"))
    }

    @Test func showsTheLogLinesDropped() {
        var report = StatusViewTests.report(state: "playing")
        #expect(StatusView.render(report).split(separator: "\n").contains("log           no line dropped"))
        report.counters.logLinesDropped = 1234
        #expect(StatusView.render(report).split(separator: "\n").contains("log           1234 lines dropped: stderr did not take them in time"))
    }

    @Test func showsTheSessionsDialect() {
        var report = StatusViewTests.report(state: "playing")
        report.session = SessionEndpoints(mediaURL: "http://m/v1/session/a/b/i.m3u8", manifestURL: "http://m/m", trackingURL: "http://m/t", sessionID: "s")
        #expect(StatusView.render(report).split(separator: "\n").contains("dialect       auto, not decided yet"))
        report.session?.dialect = .mediatailor
        #expect(StatusView.render(report).split(separator: "\n").contains("dialect       mediatailor"))
    }

    /// An SGAI session has no tracking URL and polls none: status says so, with no error.
    @Test func showsAnSGAISessionPollsNoTrackingURL() {
        var report = StatusViewTests.report(state: "playing")
        report.counters = StatusReport.Counters()
        report.lastError = nil
        report.session = SessionEndpoints(
            mediaURL: "http://m/v1/session/a/b/i.m3u8", manifestURL: "http://m/m?aws.sessionId=s", trackingURL: "", sessionID: "s", dialect: .mediatailor,
            isSGAI: true)
        let lines = StatusView.render(report).split(separator: "\n")
        #expect(lines.contains("tracking URL  none: SGAI, each asset list carries its tracking"))
        #expect(lines.contains("metadata      0 fetches   0 errors   none polled (SGAI)"))
        #expect(!lines.contains { $0.hasPrefix("last error") })
    }
}
