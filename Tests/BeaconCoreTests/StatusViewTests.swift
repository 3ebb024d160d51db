import Testing
@testable import BeaconCore

/// The human `beaconctl status`: the retry lines show only while something is being retried.
@Suite struct StatusViewTests {
    static func report(state: String) -> StatusReport {
        var counters = StatusReport.Counters()
        counters.metadataFetches = 12
        counters.metadataErrors = 3
        return StatusReport(
            version: "0.1.0", state: state, session: nil, playhead: nil, dataRange: nil, adBreaks: [], counters: counters,
            lastError: "metadata: HTTP 500")
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
