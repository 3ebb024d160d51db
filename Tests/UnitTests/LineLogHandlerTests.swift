import Logging
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct LineLogHandlerTests {
    static let instant: Milliseconds = 1_675_135_534_076

    /// A logger whose lines land in the returned recorder.
    func logger(_ style: LineLogHandler.Style = .human, level: Logger.Level = .trace) -> (Logger, Recorder<String>) {
        let lines = Recorder<String>()
        let logger = Logger(label: "daemon") { label in
            LineLogHandler(component: label, logLevel: level, style: style, now: { Self.instant }) { bytes in
                lines.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        return (logger, lines)
    }

    @Test func aLineHasLevelTimeComponentOperationMessageAndFields() {
        let (base, lines) = logger()
        var logger = base.operation("beacon", component: "delivery")
        logger[metadataKey: "zone"] = "b"
        logger[metadataKey: "box"] = "7"
        logger.info("BEACON sent pod=p1")
        logger.warning("slow", metadata: ["ms": "900"])
        #expect(
            lines.all == [
                "[INFO] [2023-01-31T03:25:34.076Z] [delivery] #beacon > BEACON sent pod=p1 box=7 zone=b\n",
                "[WARNING] [2023-01-31T03:25:34.076Z] [delivery] #beacon > slow box=7 zone=b ms=900\n",
            ])
    }

    @Test func withoutOperationOrComponentTheLabelIsShown() {
        let (logger, lines) = logger()
        logger.error("plain")
        logger.notice("given per line", metadata: ["operation": "input", "component": "cli"])
        #expect(
            lines.all == [
                "[ERROR] [2023-01-31T03:25:34.076Z] [daemon] > plain\n",
                "[NOTICE] [2023-01-31T03:25:34.076Z] [cli] #input > given per line\n",
            ])
    }

    @Test(arguments: [
        (Logger.Level.trace, "<7>[TRACE]"), (.debug, "<7>[DEBUG]"), (.info, "<6>[INFO]"), (.notice, "<5>[NOTICE]"),
        (.warning, "<4>[WARNING]"), (.error, "<3>[ERROR]"), (.critical, "<2>[CRITICAL]"),
    ])
    func journaldLinesStartWithTheirPriorityAndCarryNoTimestamp(level: Logger.Level, prefix: String) {
        let (base, lines) = logger(.journald)
        base.operation("metadata", component: "metadata").log(level: level, "refreshed adBreaks=1")
        #expect(lines.all == ["\(prefix) [metadata] #metadata > refreshed adBreaks=1\n"])
    }

    @Test func theLogLevelFilters() {
        let (logger, lines) = logger(level: .warning)
        logger.info("hidden")
        logger.debug("hidden")
        logger.warning("shown")
        #expect(lines.all == ["[WARNING] [2023-01-31T03:25:34.076Z] [daemon] > shown\n"])
    }

    @Test func journaldIsDetectedFromItsVariable() {
        #expect(LineLogHandler.Style(environment: ["JOURNAL_STREAM": "8:12345"]) == .journald)
        #expect(LineLogHandler.Style(environment: ["JOURNAL_STREAM": ""]) == .human)
        #expect(LineLogHandler.Style(environment: [:]) == .human)
    }
}
