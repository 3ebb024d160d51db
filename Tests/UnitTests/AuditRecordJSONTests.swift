import Testing

@testable import BeaconDomain

/// The audit record as one JSON line (the journal's rows, `beaconctl audit --json`): each kind's
/// members and values, in name order, wall-clock times in ISO 8601 UTC, absent fields left out;
/// read back to the same record; and the record ids, stable for the same step.
@Suite(.timeLimit(.minutes(1))) struct AuditRecordJSONTests {
    static let t0 = AuditSample.t0
    /// t0 as the records write it.
    static let at = "2023-01-31T03:25:34.076Z"

    static let session = AuditSubject(sessionID: "s1", dialect: .harmonic, timeline: .programDateTime)
    static let event = AuditSubject(
        sessionID: "s1", dialect: .harmonic, adBreakID: "p", adID: "a", creativeID: "c1", event: .impression, timeline: .programDateTime,
        window: t0...(t0 + 2000))

    static func record(_ kind: AuditRecord.Kind, _ subject: AuditSubject = event, at: Milliseconds = t0) -> AuditRecord {
        AuditRecord(id: "id-\(kind.rawValue)", kind: kind, at: at, subject: subject)
    }

    /// Each kind of record with every field it carries, and its line.
    static let lines: [(AuditRecord, String)] = {
        let start = AuditRecord.session(.sessionStart, session, parts: ["s1"], reason: "resumed", at: t0)
        let end = record(.sessionEnd, AuditSubject(sessionID: "s1"))
        var initFailed = record(.sessionInitFailed, AuditSubject(sessionID: "https://ssai.example/live/master.m3u8", dialect: .mediatailor))
        initFailed.reason = "HTTP 503"
        var due = record(.due, at: t0 + 500)
        due.dueAt = t0 + 500
        due.played = [(t0 - 1000)...(t0 + 500)]
        var delivered = record(.attempt, at: t0 + 600)
        delivered.dueAt = t0 + 500
        delivered.attempt = 2
        delivered.urlHost = "t.example"
        delivered.httpStatus = 200
        delivered.latencyMilliseconds = 35
        delivered.mayBeResend = true
        var failed = record(.attempt, AuditSubject(sessionID: "s1", adBreakID: "p", adID: "a", event: .impression))
        failed.attempt = 1
        failed.urlHost = "t.example"
        failed.error = "timed out"
        failed.latencyMilliseconds = 5000
        var givenUp = record(.givenUp, AuditSubject(sessionID: "s1", adID: "a", event: .complete))
        givenUp.attempt = 1
        givenUp.urlHost = "t.example"
        givenUp.httpStatus = 404
        givenUp.reason = "HTTP 404"
        var notFired = record(.notFired, AuditSubject(sessionID: "s1", adBreakID: "p", adID: "a", event: .midpoint, window: 15_000...15_000))
        notFired.notFired = .seekedOver
        notFired.played = [0...10_000, 20_000...25_000]
        return [
            (
                start,
                #"{"at":"\#(at)","dialect":"harmonic","id":"65aea395a0be902c9a96f2c7c2902ed8","reason":"resumed","#
                    + #""record":"session-start","sessionId":"s1","timeline":"programDateTime"}"#
            ),
            (end, #"{"at":"\#(at)","id":"id-session-end","record":"session-end","sessionId":"s1"}"#),
            (
                initFailed,
                #"{"at":"\#(at)","dialect":"mediatailor","id":"id-session-init-failed","reason":"HTTP 503","record":"session-init-failed","#
                    + #""sessionId":"https://ssai.example/live/master.m3u8"}"#
            ),
            (
                due,
                #"{"adBreakId":"p","adId":"a","at":"2023-01-31T03:25:34.576Z","creativeId":"c1","dialect":"harmonic","#
                    + #""dueAt":"2023-01-31T03:25:34.576Z","event":"impression","id":"id-due","played":[[1675135533076,1675135534576]],"#
                    + #""record":"due","sessionId":"s1","timeline":"programDateTime","windowEnd":1675135536076,"windowStart":1675135534076}"#
            ),
            (
                delivered,
                #"{"adBreakId":"p","adId":"a","at":"2023-01-31T03:25:34.676Z","attempt":2,"creativeId":"c1","dialect":"harmonic","#
                    + #""dueAt":"2023-01-31T03:25:34.576Z","event":"impression","httpStatus":200,"id":"id-attempt","latencyMs":35,"#
                    + #""mayBeResend":true,"outcome":"delivered","record":"attempt","sessionId":"s1","timeline":"programDateTime","#
                    + #""urlHost":"t.example","windowEnd":1675135536076,"windowStart":1675135534076}"#
            ),
            (
                failed,
                #"{"adBreakId":"p","adId":"a","at":"\#(at)","attempt":1,"error":"timed out","event":"impression","id":"id-attempt","#
                    + #""latencyMs":5000,"outcome":"failed","record":"attempt","sessionId":"s1","urlHost":"t.example"}"#
            ),
            (
                givenUp,
                #"{"adId":"a","at":"\#(at)","attempt":1,"event":"complete","httpStatus":404,"id":"id-given-up","outcome":"given-up","#
                    + #""reason":"HTTP 404","record":"given-up","sessionId":"s1","urlHost":"t.example"}"#
            ),
            (
                notFired,
                #"{"adBreakId":"p","adId":"a","at":"\#(at)","event":"midpoint","id":"id-not-fired","notFired":"seeked-over","#
                    + #""outcome":"not-fired","played":[[0,10000],[20000,25000]],"record":"not-fired","sessionId":"s1","#
                    + #""windowEnd":15000,"windowStart":15000}"#
            ),
        ]
    }()

    @Test func everyKindIsWrittenWithItsMembersInNameOrder() {
        #expect(Set(Self.lines.map(\.0.kind)) == Set(AuditRecord.Kind.allCases))
        for (record, line) in Self.lines {
            #expect(record.jsonLine == line, "\(record.kind)")
        }
    }

    @Test func everyKindReadsBackToTheSameRecord() {
        for (record, line) in Self.lines {
            #expect(AuditRecord(jsonLine: Array(line.utf8)) == record, "\(record.kind)")
        }
    }

    @Test func aRecordWithNothingButItsKindHasThreeMembers() {
        let bare = AuditRecord(id: "x", kind: .due, at: 0, subject: AuditSubject())
        #expect(bare.jsonLine == #"{"at":"1970-01-01T00:00:00.000Z","id":"x","record":"due"}"#)
        #expect(AuditRecord(jsonLine: Array(bare.jsonLine.utf8)) == bare)
    }

    @Test func aResendFlagThatIsFalseIsStillWritten() {
        var attempt = Self.record(.attempt, AuditSubject())
        attempt.mayBeResend = false
        #expect(attempt.jsonLine.contains(#""mayBeResend":false"#))
        #expect(!attempt.jsonLine.contains("httpStatus"), "no answer: no status")
        #expect(attempt.jsonLine.contains(#""outcome":"failed""#), "an attempt without a 2xx did not deliver")
    }

    @Test func linesALaterReleaseWritesOrThatAreBrokenReadAsWell() throws {
        // A member this release does not know is passed over.
        let newer = #"{"at":"\#(Self.at)","id":"x","record":"due","sessionId":"s1","colour":"blue"}"#
        #expect(AuditRecord(jsonLine: Array(newer.utf8)) == AuditSample.record(.due, adBreak: nil, ad: nil, event: nil, id: "x"))
        // A record kind it does not know, or no JSON at all, is no record.
        #expect(AuditRecord(jsonLine: Array(#"{"at":"\#(Self.at)","id":"x","record":"bookmark"}"#.utf8)) == nil)
        #expect(AuditRecord(jsonLine: Array("not json".utf8)) == nil)
        #expect(AuditRecord(jsonLine: Array(#"{"record":"due","at":"\#(Self.at)"}"#.utf8)) == nil, "no id")
        // A window backwards is the instant it starts at; a played stretch that is not two ordered numbers is left out.
        let odd = #"{"at":"\#(Self.at)","id":"x","record":"due","windowStart":50,"windowEnd":10,"played":[[1,2],[5,3],[7]]}"#
        let read = try #require(AuditRecord(jsonLine: Array(odd.utf8)))
        #expect(read.subject.window == 50...50)
        #expect(read.played == [1...2])
    }

    // MARK: Ids

    @Test func anIDIsTheFirst16BytesOfTheSHA256OfItsKindAndPartsInHex() {
        // sha256("due\u{1F}s1\u{1F}p"), its first 32 hex digits.
        #expect(AuditRecordID.of(.due, ["s1", "p"]) == "a044f38d66b87275e2e5d89035932db4")
        #expect(AuditRecordID.of(.due, ["s1", "p"]) == AuditRecordID.of(.due, ["s1", "p"]))
    }

    @Test func anotherKindOrOtherPartsGiveAnotherID() {
        let ids = [
            AuditRecordID.of(.due, ["s1", "p"]), AuditRecordID.of(.attempt, ["s1", "p"]), AuditRecordID.of(.due, ["s1", "q"]),
            AuditRecordID.of(.due, ["s1p"]), AuditRecordID.of(.due, ["s", "1p"]), AuditRecordID.of(.due, ["s1", "p", ""]),
        ]
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.utf8.count == 32 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
    }

    @Test func aDeliveryIsNamedByEveryFieldOfItsKey() {
        let key = BeaconDelivery.Key(
            sessionKey: "s1", adBreakID: "p", adID: "a", event: .impression, eventStart: 5, url: "http://t.example/b", occurrence: 0)
        var others: [BeaconDelivery.Key] = []
        for change in 0..<7 {
            var other = key
            switch change {
            case 0: other.sessionKey = "s2"
            case 1: other.adBreakID = "q"
            case 2: other.adID = "b"
            case 3: other.event = .start
            case 4: other.eventStart = 6
            case 5: other.url = "http://t.example/c"
            default: other.occurrence = 1
            }
            others.append(other)
        }
        let ids = ([key] + others).map { AuditRecordID.of(.attempt, AuditRecordID.parts(of: $0)) }
        #expect(Set(ids).count == 8)
    }

    @Test func anEventFiringOnEveryActionIsANewStepEachTimeOneFiringOnceIsNot() {
        func due(_ event: TrackingEventType, at wallNow: Milliseconds) -> String {
            let firing = Firing(
                reference: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0), adBreakID: "p", adID: "a", event: event,
                eventStart: Self.t0, signalingURLs: [])
            return AuditRecord.due(firing, sessionKey: "s1", subject: Self.event, played: [], at: wallNow).id
        }
        #expect(due(.impression, at: Self.t0) == due(.impression, at: Self.t0 + 9000))
        #expect(due(.pause, at: Self.t0) != due(.pause, at: Self.t0 + 9000))
    }
}
