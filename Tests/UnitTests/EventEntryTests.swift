import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// How an entry is shown: JSON for tools, one line for people.
@Suite(.timeLimit(.minutes(2))) struct EventEntryTests {
    static let entry = EventEntry(
        sequence: 7, time: 1_675_135_534_076,
        event: HistoryEvent(.metadataFailed, ["reason": "HTTP 500", "url": "http://127.0.0.1/m?a=1", "note": "a \"b\"\n"]))

    @Test func theJSONLineCarriesEveryFieldAndReadsBack() throws {
        let line = Self.entry.jsonLine()
        #expect(line.hasPrefix(#"{"code":103001,"details":{"#))
        #expect(line.contains(#""name":"metadataFailed","sequence":7,"time":1675135534076,"type":"error"}"#))
        #expect(!line.contains("\n"))
        #expect(try EventEntry.decode(jsonLine: line) == Self.entry)
    }

    @Test func theHumanLineIsTimeTypeCodeNameThenSortedDetails() {
        #expect(Self.entry.humanLine() == #"2023-01-31T03:25:34.076Z  ERROR    103001  metadataFailed  note="a \"b\"\n"  reason="HTTP 500"  url=http://127.0.0.1/m?a=1"#)
        let info = EventEntry(sequence: 1, time: 0, event: HistoryEvent(.drainStarted, ["inFlight": "0"]))
        #expect(info.humanLine() == "1970-01-01T00:00:00.000Z  INFO     305001  drainStarted  inFlight=0")
        let empty = EventEntry(sequence: 1, time: 0, event: HistoryEvent(.sessionEnded, ["sessionId": ""]))
        #expect(empty.humanLine().hasSuffix(#"sessionEnded  sessionId="""#))
    }

    @Test func theHistoryReplyReadsBack() throws {
        let reply = EventHistoryReply(capacity: 256, events: [Self.entry])
        #expect(try EventHistoryReply.decode(jsonLine: reply.jsonLine()) == reply)
        #expect(reply.jsonLine().hasPrefix(#"{"capacity":256,"events":[{"#))
    }
}
