import Testing

@testable import BeaconDomain
@testable import BeaconTerminal

/// What a person reads of the audit: a line of `beaconctl audit`'s table per record, and the
/// `audit` line of `beaconctl status` (where the audit is kept, how much, what was dropped).
@Suite(.timeLimit(.minutes(1))) struct AuditViewTests {
    static let records = AuditRecordJSONTests.lines.map(\.0)

    @Test func eachRecordIsOneLineOfColumnsThenWhatItSays() {
        #expect(
            Self.records.map(AuditView.line) == [
                #"2023-01-31T03:25:34.076Z  session-start        -          s1  -  -  -  reason="resumed""#,
                "2023-01-31T03:25:34.076Z  session-end          -          s1  -  -  -",
                #"2023-01-31T03:25:34.076Z  session-init-failed  -          https://ssai.example/live/master.m3u8  -  -  -  reason="HTTP 503""#,
                "2023-01-31T03:25:34.576Z  due                  -          s1  p  a  impression",
                "2023-01-31T03:25:34.676Z  attempt              delivered  s1  p  a  impression  t.example attempt=2 status=200 latency_ms=35 resend",
                #"2023-01-31T03:25:34.076Z  attempt              failed     s1  p  a  impression  t.example attempt=1 error="timed out" latency_ms=5000"#,
                #"2023-01-31T03:25:34.076Z  given-up             given-up   s1  -  a  complete  t.example attempt=1 status=404 reason="HTTP 404""#,
                "2023-01-31T03:25:34.076Z  not-fired            not-fired  s1  p  a  midpoint  why=seeked-over",
            ])
    }

    @Test func theRecordAndOutcomeColumnsLineUpWhateverTheKind() {
        for line in Self.records.map(AuditView.line) {
            let characters = Array(line)
            #expect(characters[24..<26] == [" ", " "], "after the time: \(line)")
            #expect(characters[45..<47] == [" ", " "], "after the record: \(line)")
            #expect(characters[56..<58] == [" ", " "], "after the outcome: \(line)")
            #expect(characters[47] != " " && characters[58] != " ", "\(line)")
        }
    }

    @Test func aResendFlagThatIsFalseSaysNothing() {
        var attempt = Self.records[4]
        attempt.mayBeResend = false
        #expect(AuditView.line(attempt).hasSuffix("latency_ms=35"))
    }

    // MARK: Status

    static func statusLine(_ audit: AuditStatus?) -> [Substring] {
        var report = StatusViewTests.report(state: "playing")
        report.audit = audit
        return StatusView.render(report).split(separator: "\n").filter { $0.hasPrefix("audit") }
    }

    @Test func statusSaysTheJournalKeepsTheAudit() {
        #expect(Self.statusLine(AuditStatus(storage: "journal", records: 12, bytes: 4 * 1024 - 1)) == ["audit         12 records, 3 KiB, in the journal"])
    }

    @Test func statusSaysTheMemoryKeepsItAndWhatWasDropped() {
        #expect(
            Self.statusLine(AuditStatus(storage: "memory", records: 5, bytes: 2048, dropped: 7, droppedUnexported: 3))
                == ["audit         5 records, 2 KiB, in memory (no state directory), lost at exit, 7 oldest dropped (3 never exported)"])
        #expect(
            Self.statusLine(AuditStatus(storage: "memory", records: 0, bytes: 0))
                == ["audit         0 records, 0 KiB, in memory (no state directory), lost at exit"], "nothing dropped: not said")
    }

    @Test func statusSaysWhyTheJournalsAuditCouldNotBeRead() {
        let problem = "cannot read the audit in /var/lib/beaconctl/journal.sqlite: unable to open database file (SQLite code 14)"
        #expect(
            Self.statusLine(AuditStatus(storage: "journal", records: 9, problem: problem))
                == ["audit         journal, unreadable: \(problem)"])
    }

    @Test func aReportWithoutAuditHasNoAuditLine() {
        #expect(Self.statusLine(nil).isEmpty)
    }
}
