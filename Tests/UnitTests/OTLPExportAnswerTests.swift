import BeaconDomain
import Testing

/// A collector's answer to an export, read liberally: a 2xx is a success whatever its body.
@Suite(.timeLimit(.minutes(1))) struct OTLPExportAnswerTests {
    static func answer(_ body: String, _ signal: OTLPSignal = .logs) -> OTLPExportAnswer {
        OTLPExportAnswer(body: Array(body.utf8), signal: signal)
    }

    @Test func aPartialSuccessCountsTheRejectedAsAStringOrANumber() {
        #expect(Self.answer(#"{"partialSuccess":{"rejectedLogRecords":"2","errorMessage":"2 records too large"}}"#)
            == OTLPExportAnswer(rejected: 2, message: "2 records too large"))
        #expect(Self.answer(#"{"partialSuccess":{"rejectedLogRecords":7}}"#) == OTLPExportAnswer(rejected: 7))
        #expect(Self.answer(#"{"partialSuccess":{"rejectedDataPoints":"5","errorMessage":"x"}}"#, .metrics)
            == OTLPExportAnswer(rejected: 5, message: "x"))
        #expect(Self.answer(#"{"partialSuccess":{"rejectedDataPoints":9223372036854775807}}"#, .metrics).rejected == .max)
        #expect(Self.answer(#"{"other":1,"partialSuccess":{"rejectedLogRecords":"1","extra":[]}}"#).rejected == 1)
    }

    @Test func eachSignalReadsItsOwnCount() {
        let logs = #"{"partialSuccess":{"rejectedLogRecords":"3"}}"#
        let metrics = #"{"partialSuccess":{"rejectedDataPoints":"4"}}"#
        #expect(Self.answer(logs, .metrics) == OTLPExportAnswer())
        #expect(Self.answer(metrics, .logs) == OTLPExportAnswer())
        #expect(Self.answer(metrics, .metrics).rejected == 4)
    }

    @Test func noBodyOrAnEmptyObjectIsAllAccepted() {
        #expect(OTLPExportAnswer(body: [], signal: .logs) == OTLPExportAnswer())
        #expect(Self.answer("{}") == OTLPExportAnswer())
        #expect(Self.answer(#"{"partialSuccess":{}}"#) == OTLPExportAnswer())
        #expect(Self.answer(#"{"partialSuccess":null}"#) == OTLPExportAnswer())
        #expect(Self.answer(#"{"partialSuccess":{"rejectedLogRecords":"0","errorMessage":""}}"#) == OTLPExportAnswer())
    }

    @Test func aMessageWithNothingRejectedIsAWarning() {
        #expect(Self.answer(#"{"partialSuccess":{"errorMessage":"attribute values truncated"}}"#)
            == OTLPExportAnswer(rejected: 0, message: "attribute values truncated"))
    }

    @Test(arguments: [
        "not json", "[1,2]", "null", "7", #""partialSuccess""#, #"{"partialSuccess":"all good"}"#, #"{"partialSuccess":[1]}"#,
        #"{"partialSuccess":{"rejectedLogRecords":true}}"#, #"{"partialSuccess":{"rejectedLogRecords":"many"}}"#,
        #"{"partialSuccess":{"rejectedLogRecords":"99999999999999999999"}}"#, #"{"partialSuccess":{"rejectedLogRecords":-3}}"#,
        #"{"partialSuccess":{"rejectedLogRecords":1.5}}"#, #"{"partialSuccess":{"rejectedLogRecords":"2""#,
    ])
    func garbageIsNothingRejected(body: String) {
        #expect(Self.answer(body).rejected == 0)
    }

    @Test func aCountOfTheWrongTypeLeavesTheMessageReadable() {
        #expect(Self.answer(#"{"partialSuccess":{"rejectedLogRecords":{"n":1},"errorMessage":"why"}}"#)
            == OTLPExportAnswer(rejected: 0, message: "why"))
        #expect(Self.answer(#"{"partialSuccess":{"rejectedLogRecords":"4","errorMessage":17}}"#) == OTLPExportAnswer(rejected: 4))
    }

    @Test func bytesThatAreNotUTF8AreNothingRejected() {
        #expect(OTLPExportAnswer(body: [0xFF, 0xFE, 0x7B, 0x00], signal: .metrics) == OTLPExportAnswer())
    }

    @Test func theMessageIsBounded() {
        let long = String(repeating: "é", count: 10_000)
        let answer = Self.answer(#"{"partialSuccess":{"rejectedLogRecords":"1","errorMessage":"\#(long)"}}"#)
        #expect(answer.message?.count == OTLPExportAnswer.maxMessageCharacters)
        let failure = OTLPExportAnswer.failureMessage(body: Array(#"{"message":"\#(long)"}"#.utf8))
        #expect(failure?.count == OTLPExportAnswer.maxMessageCharacters)
    }

    @Test func aFailuresStatusSaysWhy() {
        #expect(OTLPExportAnswer.failureMessage(body: Array(#"{"code":3,"message":"invalid attribute value","details":[]}"#.utf8))
            == "invalid attribute value")
        #expect(OTLPExportAnswer.failureMessage(body: []) == nil)
        #expect(OTLPExportAnswer.failureMessage(body: Array("<html>Bad Gateway</html>".utf8)) == nil)
        #expect(OTLPExportAnswer.failureMessage(body: Array(#"{"code":3,"message":""}"#.utf8)) == nil)
        #expect(OTLPExportAnswer.failureMessage(body: Array(#"{"code":3,"message":5}"#.utf8)) == nil)
    }
}
