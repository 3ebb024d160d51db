import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// Frames of `beaconctl watch`, checked exactly.
@Suite(.timeLimit(.minutes(2))) struct WatchViewTests {
    static let t0 = Fixture.t0
    /// 2023-11-14T22:13:20.000Z
    static let now: Milliseconds = 1_700_000_000_000

    static func event(_ type: TrackingEventType, at offset: Milliseconds, _ state: ReportingState, duration: Milliseconds = 0) -> TrackingEvent {
        TrackingEvent(event: type, startTime: t0 + 10_000 + offset, duration: duration, signalingURLs: ["http://127.0.0.1:1/b"], reportingState: state)
    }

    /// Two 10 s ads in ad break p1 from t0; the playhead 2 s into the second, half a second ago.
    static func report(state: String = "playing", playhead: Milliseconds? = t0 + 12_000) -> StatusReport {
        let first = Ad(id: "a1", startTime: t0, duration: 10_000, trackingEvents: [
            TrackingEvent(event: .complete, startTime: t0 + 10_000, duration: 0, signalingURLs: ["http://127.0.0.1:1/b"], reportingState: .failed)
        ])
        let second = Ad(id: "a2", startTime: t0 + 10_000, duration: 10_000, trackingEvents: [
            event(.impression, at: 0, .done, duration: 10_000),
            event(.start, at: 0, .done),
            event(.firstQuartile, at: 2_500, .connecting),
            event(.midpoint, at: 5_000, .idle),
            event(TrackingEventType(rawValue: "acceptInvitation"), at: 0, .idle),
        ])
        var counters = StatusReport.Counters()
        counters.ticks = 40
        counters.beaconsSent = 7
        counters.beaconsFailed = 1
        counters.metadataFetches = 12
        counters.metadataErrors = 1
        return StatusReport(
            version: "0.1.0", state: state,
            session: SessionEndpoints(mediaURL: "http://m", manifestURL: "http://m?sessid=s1", trackingURL: "http://t?sessid=s1", sessionID: "s1"),
            playhead: playhead, lastTickAt: now - 500, lastMetadataAt: now - 1_200, dataRange: DataRange(start: t0 - 60_000, end: t0 + 30_000),
            adBreaks: [AdBreak(id: "p1", startTime: t0, duration: 20_000, ads: [first, second])], counters: counters)
    }

    static let history = [
        EventEntry(sequence: 1, time: now - 4_000, event: HistoryEvent(.sessionReady, ["sessionId": "s1"])),
        EventEntry(sequence: 2, time: now - 3_000, event: HistoryEvent(.metadataFailed, ["reason": "HTTP 500"])),
        EventEntry(sequence: 3, time: now - 2_000, event: HistoryEvent(.lineRejected, ["reason": "empty line"])),
        EventEntry(sequence: 4, time: now - 1_000, event: HistoryEvent(.metadataApplied, ["adBreaks": "1"])),
    ]

    @Test func aPlainFrameShowsTheAdPlayingItsEventsAndTheLastProblems() {
        let frame = WatchView.render(report: Self.report(), history: Self.history, now: Self.now, width: 80, colour: false)
        let expected = """
            beaconctl watch   2023-11-14T22:13:20.000Z
            state         playing   session s1
            playhead      2023-01-31T03:25:46.576Z   last tick 0.5s ago
            next ad break playing ad break p1 (ends in 7.5s)
            ad break      p1   ad 2 of 2: a2
            progress      [#########---------------------------]  25%  2.5s of 10.0s
              done        impression         +0.0s
              done        start              +0.0s
              connecting  firstQuartile      +2.5s
              idle        midpoint           +5.0s
              unknown     acceptInvitation   +0.0s
            backlog       1 in flight, 1 failed
            beacons       7 sent   1 failed
            metadata      12 fetches   1 errors   last 1.2s ago

            last warnings and errors
              2023-11-14T22:13:17.000Z  ERROR  103001  metadataFailed  reason="HTTP 500"
              2023-11-14T22:13:18.000Z  WARNING  201001  lineRejected  reason="empty line"
            """
        #expect(frame == expected)
        #expect(!frame.contains("\u{1B}"))
    }

    @Test func colourMarksStatesAndProblems() {
        let frame = WatchView.render(report: Self.report(), history: Self.history, now: Self.now, width: 80, colour: true)
        #expect(frame.contains("\u{1B}[32mdone        \u{1B}[0mimpression"))
        #expect(frame.contains("\u{1B}[33mconnecting  \u{1B}[0mfirstQuartile"))
        #expect(frame.contains("\u{1B}[2midle        \u{1B}[0mmidpoint"))
        #expect(frame.contains("\u{1B}[31mERROR\u{1B}[0m"))
        #expect(frame.contains("\u{1B}[33mWARNING\u{1B}[0m"))
        #expect(frame.contains("\u{1B}[36mplaying\u{1B}[0m"))
        #expect(frame.contains("\u{1B}[31m1 failed\u{1B}[0m"))
        // Without the escapes it is the plain frame.
        #expect(Self.strip(frame) == WatchView.render(report: Self.report(), history: Self.history, now: Self.now, width: 80, colour: false))
    }

    @Test(arguments: [20, 45, 60, 200])
    func noLineIsWiderThanTheTerminal(width: Int) {
        for colour in [false, true] {
            let frame = WatchView.render(report: Self.report(), history: Self.history, now: Self.now, width: width, colour: colour)
            for line in Self.strip(frame).split(separator: "\n") {
                #expect(line.count <= width, "\(line)")
            }
        }
    }

    @Test func theProgressBarFitsTheWidth() {
        let narrow = WatchView.render(report: Self.report(), history: [], now: Self.now, width: 60, colour: false)
        #expect(narrow.contains("progress      [####------------]  25%"))
    }

    @Test func thePlayheadMovesOnBetweenTicksOnlyWhilePlayingAndAtMostFiveSeconds() {
        let paused = Self.report(state: "paused")
        #expect(WatchView.estimatedPlayhead(paused, now: Self.now) == Self.t0 + 12_000)
        #expect(WatchView.estimatedPlayhead(Self.report(), now: Self.now) == Self.t0 + 12_500)
        #expect(WatchView.estimatedPlayhead(Self.report(), now: Self.now + 60_000) == Self.t0 + 17_000)
        #expect(WatchView.estimatedPlayhead(Self.report(playhead: nil), now: Self.now) == nil)
    }

    @Test func beforeAnAdBreakItCountsDown() {
        let frame = WatchView.render(report: Self.report(state: "paused", playhead: Self.t0 - 65_000), history: [], now: Self.now, width: 80, colour: false)
        #expect(frame.contains("next ad break in 1m05s (ad break p1)"))
        #expect(!frame.contains("progress"))
        #expect(frame.contains("last warnings and errors\n  none"))
    }

    @Test func onlyTheLastFiveWarningsAndErrorsAreShownNewestLast() {
        let history = (1...9).map { (index: Int) -> EventEntry in
            let kind: EventKind = index % 2 == 0 ? .sessionStarting : .lineRejected
            let time: Milliseconds = Self.now - Milliseconds(10 - index) * 1_000
            return EventEntry(sequence: UInt64(index), time: time, event: HistoryEvent(kind, ["n": "\(index)"]))
        }
        let frame = WatchView.render(report: Self.report(), history: history, now: Self.now, width: 120, colour: false)
        let shown = frame.split(separator: "\n").filter { $0.contains("201001") }.map { $0.split(separator: "=").last.map(String.init) }
        #expect(shown == ["1", "3", "5", "7", "9"])
        #expect(!frame.contains("302001"))
    }

    @Test func withoutASessionItSaysWhatItWaitsFor() {
        let report = StatusReport(
            version: "0.1.0", state: "idle", session: nil, playhead: nil, dataRange: nil, adBreaks: [], counters: StatusReport.Counters())
        let frame = WatchView.render(report: report, history: [], now: Self.now, width: 80, colour: false)
        #expect(frame.contains("state         idle   session none (waiting for 'load <media-url>')"))
        #expect(frame.contains("playhead      no tick yet"))
        #expect(frame.contains("backlog       0 in flight, 0 failed"))
    }

    @Test func theErrorStateShowsWhy() {
        var report = Self.report(state: "error")
        report.lastError = "HTTP 404"
        let frame = WatchView.render(report: report, history: [], now: Self.now, width: 80, colour: true)
        #expect(frame.contains("\u{1B}[31merror\u{1B}[0m"))
        #expect(frame.contains("\nerror         HTTP 404\n"))
    }

    @Test func aRetriedInitShowsWhyItFailed() {
        var report = Self.report(state: "initializing", playhead: nil)
        report.session = nil
        report.lastError = "session init: HTTP 503"
        #expect(!WatchView.render(report: report, history: [], now: Self.now, width: 80, colour: false).contains("error         "))
        report.initFailures = 1
        let frame = WatchView.render(report: report, history: [], now: Self.now, width: 80, colour: false)
        #expect(frame.contains("\nerror         session init: HTTP 503\n"))
        #expect(frame.contains("state         initializing   session none yet (session init under way)"))
    }

    @Test func theWaitingFrameSaysSo() {
        let frame = WatchView.waiting(reason: "no daemon is listening on /x", now: Self.now, width: 80, colour: false)
        #expect(frame == "beaconctl watch   2023-11-14T22:13:20.000Z\nwaiting for daemon: no daemon is listening on /x")
        #expect(WatchView.waiting(reason: "r", now: Self.now, width: 80, colour: true).contains("\u{1B}[33mwaiting for daemon\u{1B}[0m"))
    }

    /// The text without ANSI SGR sequences.
    static func strip(_ text: String) -> String {
        var out = ""
        var inEscape = false
        for character in text {
            if character == "\u{1B}" { inEscape = true; continue }
            if inEscape {
                if character == "m" { inEscape = false }
                continue
            }
            out.append(character)
        }
        return out
    }
}
