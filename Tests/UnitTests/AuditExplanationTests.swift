import Testing

@testable import BeaconDomain

/// `beaconctl audit explain`: the one paragraph told of a tracking event from its session's records,
/// for each way its story can go.
@Suite(.timeLimit(.minutes(1))) struct AuditExplanationTests {
    static let t0 = AuditSample.t0
    /// The impression of ad `a` (creative `c1`) in ad break `p`, its window the two seconds from t0.
    static let subject = AuditSubject(
        sessionID: "s1", dialect: .harmonic, adBreakID: "p", adID: "a", creativeID: "c1", event: .impression, timeline: .programDateTime,
        window: t0...(t0 + 2000))
    static let name = "The impression of ad a (creative c1) in ad break p of session s1"
    static let window = " (its window 2023-01-31T03:25:34.076Z–2023-01-31T03:25:36.076Z on program date time)"
    /// The first sentence of an event that fired half a second into its window.
    static let fired =
        "\(name) fired at 2023-01-31T03:25:34.576Z\(window), made due by the playback of 2023-01-31T03:25:33.076Z–2023-01-31T03:25:34.576Z."

    static func step(_ kind: AuditRecord.Kind, at offset: Milliseconds, _ subject: AuditSubject = subject) -> AuditRecord {
        AuditRecord(id: "\(kind.rawValue)-\(offset)-\(subject.adBreakID ?? "")", kind: kind, at: t0 + offset, subject: subject)
    }

    static let due: AuditRecord = {
        var due = step(.due, at: 500)
        due.dueAt = t0 + 500
        due.played = [(t0 - 1000)...(t0 + 500)]
        return due
    }()

    /// Request `number` to `host`, `offset` after t0: answered `status`, else failed with `error`.
    static func attempt(
        _ number: Int, at offset: Milliseconds, status: Int? = nil, error: String? = nil, latency: Int64 = 0, resend: Bool? = nil,
        host: String = "t.example"
    ) -> AuditRecord {
        var attempt = step(.attempt, at: offset)
        attempt.id += "-\(host)-\(number)"
        attempt.attempt = number
        attempt.urlHost = host
        attempt.httpStatus = status
        attempt.error = error
        attempt.latencyMilliseconds = latency
        attempt.mayBeResend = resend
        return attempt
    }

    static func givenUp(at offset: Milliseconds, reason: String, host: String = "t.example") -> AuditRecord {
        var givenUp = step(.givenUp, at: offset)
        givenUp.id += host
        givenUp.urlHost = host
        givenUp.reason = reason
        return givenUp
    }

    static func explain(_ records: [AuditRecord], event: TrackingEventType = .impression, adBreak: String? = nil) -> String {
        AuditExplanation.explain(records, sessionID: "s1", adID: "a", event: event, adBreakID: adBreak)
    }

    // MARK: Fired

    @Test func deliveredAtTheFirstRequest() {
        #expect(
            Self.explain([Self.due, Self.attempt(1, at: 600, status: 200, latency: 35)])
                == Self.fired + " Requests: t.example attempt 1 at 2023-01-31T03:25:34.676Z: HTTP 200 in 35 ms. It was delivered.")
    }

    @Test func failedThenDelivered() {
        let records = [Self.due, Self.attempt(1, at: 600, error: "timed out", latency: 5000), Self.attempt(2, at: 9600, status: 204)]
        #expect(
            Self.explain(records)
                == Self.fired + " Requests: t.example attempt 1 at 2023-01-31T03:25:34.676Z: timed out in 5000 ms; "
                + "t.example attempt 2 at 2023-01-31T03:25:43.676Z: HTTP 204. It was delivered.")
    }

    @Test func deliveredByARequestResentAfterARestartMayHaveCountedTwice() {
        let records = [Self.due, Self.attempt(1, at: 600, status: 200, resend: true)]
        #expect(
            Self.explain(records)
                == Self.fired + " Requests: t.example attempt 1 at 2023-01-31T03:25:34.676Z: HTTP 200 (a re-send after a restart). "
                + "It was delivered, possibly twice (a request was re-sent after a restart).")
    }

    @Test func aFailedRequestIsBeingRetriedAndNoRequestMayHaveEndedYet() {
        #expect(
            Self.explain([Self.due, Self.attempt(1, at: 600, status: 503)])
                == Self.fired + " Requests: t.example attempt 1 at 2023-01-31T03:25:34.676Z: HTTP 503. Its last request did not deliver: it is being retried.")
        #expect(Self.explain([Self.due]) == Self.fired + " No request has ended yet.")
    }

    @Test func givenUp() {
        let records = [Self.due, Self.attempt(1, at: 600, status: 404), Self.givenUp(at: 600, reason: "HTTP 404")]
        #expect(
            Self.explain(records)
                == Self.fired + " Requests: t.example attempt 1 at 2023-01-31T03:25:34.676Z: HTTP 404. It was given up for t.example: HTTP 404.")
    }

    @Test func oneURLDeliveredAndAnotherGivenUp() {
        let records = [
            Self.due, Self.attempt(1, at: 600, status: 200), Self.attempt(1, at: 700, status: 410, host: "u.example"),
            Self.givenUp(at: 700, reason: "HTTP 410", host: "u.example"),
        ]
        #expect(
            Self.explain(records).hasSuffix(
                "HTTP 410. Some signaling URLs were delivered, and it was given up for u.example: HTTP 410."))
    }

    @Test func theRecordOfWhenItBecameDueIsGone() {
        #expect(
            Self.explain([Self.attempt(1, at: 600, status: 200)])
                == "\(Self.name) fired\(Self.window); the record of when it became due is gone (older than the audit keeps). "
                + "Requests: t.example attempt 1 at 2023-01-31T03:25:34.676Z: HTTP 200. It was delivered.")
    }

    // MARK: Not fired

    /// What each reason says, and how the records of it come: an event that could no longer fire
    /// (no request, no host), or one that fired and sent nothing (after its due record, per URL).
    static let reasons: [(NotFiredReason, String)] = [
        (.notPlayed, "playback never reached its window"),
        (.seekedOver, "playback jumped over its window (a seek) without playing it"),
        (.withdrawn, "its ad was withdrawn from the metadata before any of its events fired"),
        (.neverConfirmed, "it started beyond its ad as last described, and no later metadata extended the ad over it"),
        (.sessionEndedFirst, "the session ended while its ad played, before the playhead reached its window"),
        (.quietMode, "the daemon was in quiet mode: it was computed and not sent"),
        (.beaconsDisabled, "the beacons reporter was disabled: it was computed and not sent"),
    ]

    @Test func everyReasonIsCovered() {
        #expect(Set(Self.reasons.map(\.0)) == Set(NotFiredReason.allCases))
    }

    @Test(arguments: reasons) func notFired(reason: NotFiredReason, sentence: String) {
        var record = Self.step(.notFired, at: 60_000)
        record.notFired = reason
        if reason == .quietMode || reason == .beaconsDisabled {
            record.urlHost = "t.example"
            #expect(Self.explain([Self.due, record]) == Self.fired + " Nothing was sent: \(sentence).")
        } else {
            #expect(
                Self.explain([record])
                    == "\(Self.name) never fired\(Self.window): \(sentence). Recorded at 2023-01-31T03:26:34.076Z, when it could no longer fire.")
        }
    }

    @Test func anEventThatNeverFiredSaysWherePlaybackWentAroundItsWindow() {
        func around(_ played: [ClosedRange<Milliseconds>]) -> String {
            var record = Self.step(.notFired, at: 60_000)
            record.notFired = .seekedOver
            record.played = played.map { (Self.t0 + $0.lowerBound)...(Self.t0 + $0.upperBound) }
            let text = Self.explain([record])
            let start = text.range(of: "without playing it")?.upperBound ?? text.endIndex
            let end = text.range(of: ". Recorded at")?.lowerBound ?? text.endIndex
            return start <= end ? String(text[start..<end]) : text
        }
        #expect(
            around([-5000...(-1000), 3000...4000])
                == "; playback reached 2023-01-31T03:25:33.076Z, then went on from 2023-01-31T03:25:37.076Z")
        #expect(around([-5000...(-1000)]) == "; playback reached 2023-01-31T03:25:33.076Z")
        #expect(around([3000...4000]) == "; playback began at 2023-01-31T03:25:37.076Z, past it")
        #expect(around([]) == "")
    }

    @Test func onMediaTimeTheWindowIsInHoursMinutesAndSeconds() {
        let subject = AuditSubject(sessionID: "s1", adID: "a", event: .midpoint, timeline: .mediaTime, window: 15_000...15_000)
        var record = Self.step(.notFired, at: 60_000, subject)
        record.notFired = .notPlayed
        record.played = [0...10_000]
        #expect(
            Self.explain([record], event: .midpoint)
                == "The midpoint of ad a of session s1 never fired (its window 00:00:15.000–00:00:15.000 on media time): "
                + "playback never reached its window; playback reached 00:00:10.000. Recorded at 2023-01-31T03:26:34.076Z, when it could no longer fire.")
    }

    // MARK: Not in the audit

    @Test func aSessionTheAuditHoldsNothingOf() {
        #expect(
            Self.explain([])
                == "The audit holds no record of session s1 at all: it keeps 7 days by default, and a session id is matched exactly.")
    }

    @Test func anEventTheAuditHoldsNothingOfNamesTheAdsItHolds() {
        var other = Self.subject
        other.adID = "b"
        let start = Self.step(.sessionStart, at: 0, AuditSubject(sessionID: "s1"))
        let unknown =
            "The audit holds records of session s1, none of the complete of ad a: the metadata the daemon read never described that event, "
            + "or its session still plays and it has not become due"
        #expect(Self.explain([start, Self.due, Self.step(.due, at: 0, other)], event: .complete) == unknown + ". Ads of the session in the audit: a, b.")
        #expect(Self.explain([start], event: .complete) == unknown + ".")
    }

    // MARK: An ad in two ad breaks

    @Test func anAdInTwoAdBreaksNeedsOneNamed() {
        var inQ = Self.subject
        inQ.adBreakID = "q"
        let records = [Self.due, Self.attempt(1, at: 600, status: 200), Self.step(.due, at: 90_000, inQ)]
        #expect(Self.explain(records) == "Ad a is in 2 ad breaks of session s1 (p, q): name one with --ad-break.")
        let inP = Self.explain(records, adBreak: "p")
        #expect(inP == Self.fired + " Requests: t.example attempt 1 at 2023-01-31T03:25:34.676Z: HTTP 200. It was delivered.")
        #expect(Self.explain(records, adBreak: "q").hasPrefix("The impression of ad a (creative c1) in ad break q of session s1 fired at 2023-01-31T03:27:04.076Z"))
        #expect(Self.explain(records, adBreak: "r").hasPrefix("The audit holds records of session s1, none of the impression of ad a"))
    }
}
