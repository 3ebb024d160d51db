import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct MetadataDocumentTests {
    static let minimal = """
        {"dataRange": {"start": 1675135140683, "end": 1675135564574},
         "adBreaks": [{"id": "p1", "startTime": 1675135534076, "duration": 30000,
           "ads": [{"id": "a1", "startTime": 1675135534076, "duration": 30000,
             "trackingEvents": [{"event": "impression", "startTime": 1675135534076, "duration": 30000,
                                 "signalingUrls": ["http://127.0.0.1:4647/i", "http://127.0.0.1:4647/j"]}]}]}]}
        """

    @Test func decodesEveryField() throws {
        let document = try MetadataDocument.decode(Fixture.json(Self.minimal))
        #expect(document.dataRange == DataRange(start: 1_675_135_140_683, end: 1_675_135_564_574))
        let expected = AdBreak(
            id: "p1", startTime: 1_675_135_534_076, duration: 30_000,
            ads: [
                Ad(
                    id: "a1", startTime: 1_675_135_534_076, duration: 30_000,
                    trackingEvents: [
                        TrackingEvent(
                            event: .impression, startTime: 1_675_135_534_076, duration: 30_000,
                            signalingURLs: ["http://127.0.0.1:4647/i", "http://127.0.0.1:4647/j"])
                    ])
            ])
        #expect(document.adBreaks == [expected])
        #expect(document.adBreaks[0].ads[0].trackingEvents[0].reportingState == .idle)
    }

    @Test func ignoresUnknownFields() throws {
        let body = """
            {"dataRange": {"start": 1675135140683, "end": 1675135564574, "zone": "x"}, "vendor": {"a": [1, 2]},
             "adBreaks": [{"id": "p", "startTime": 1675135534076, "duration": 5, "kind": 3,
               "ads": [{"id": "a", "startTime": 1675135534076, "duration": 5, "clickThrough": "http://127.0.0.1/c",
                 "trackingEvents": [{"event": "start", "startTime": 1675135534076, "duration": 0, "signalingUrls": [], "extra": null}]}]}]}
            """
        let document = try MetadataDocument.decode(Fixture.json(body))
        #expect(document.adBreaks.count == 1)
        #expect(document.adBreaks[0].ads[0].trackingEvents.map(\.event) == [.start])
    }

    @Test func missingListsAreEmpty() throws {
        let document = try MetadataDocument.decode(Fixture.json(Body.adBreaks(#"{"id": "p", "startTime": 1675135534076, "duration": 0}"#)))
        #expect(document.adBreaks.map(\.id) == ["p"])
        #expect(document.adBreaks[0].ads.isEmpty)
        let bare = try MetadataDocument.decode(Fixture.json(#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}}"#))
        #expect(bare.adBreaks.isEmpty)
    }

    @Test func keepsUnknownEventTypesAsTheyAreNamed() throws {
        let body = Body.events(#"{"event": "acceptInvitationLinear", "startTime": 1675135534076, "duration": 0, "signalingUrls": []}"#)
        let event = try MetadataDocument.decode(Fixture.json(body)).adBreaks[0].ads[0].trackingEvents[0]
        #expect(event.event.rawValue == "acceptInvitationLinear")
        #expect(event.event.trigger == .unknown)
    }

    /// A rejected body says what is wrong, and where: the ad break, ad and tracking event by id
    /// (by position when the id itself is unreadable).
    @Test(arguments: [
        ("not json at all", "not valid JSON"),
        ("", "not valid JSON"),
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}"#, "not valid JSON"),
        (#"{"adBreaks": []}"#, "missing 'dataRange'"),
        (#"[1, 2]"#, "the document is not a JSON object"),
        (#"{"dataRange": {"start": "1675135140683", "end": 1675135564574}}"#, "dataRange.start is not a number of milliseconds"),
        (#"{"dataRange": {"start": 1675135140683}}"#, "missing 'end' in dataRange"),
        (Body.adBreaks(#"{"id": 7.5, "startTime": 1675135534076, "duration": 1}"#), "ad break #1: id is not a string or an integer"),
        (Body.adBreaks(#"{"id": [7], "startTime": 1675135534076, "duration": 1}"#), "ad break #1: id is not a string or an integer"),
        (Body.adBreaks(#"{"id": "p1", "startTime": 1675135534076}"#), "ad break p1: missing 'duration'"),
        (Body.adBreaks(#"{"id": "p1", "startTime": 1675135534076, "duration": 1, "ads": {"id": "a"}}"#), "ad break p1: ads is not of the expected type"),
        (Body.adBreaks(#"{"id": "p1", "startTime": 1675135534076, "duration": -1}"#), "ad break p1: duration -1 ms is negative"),
        (Body.events(#"{"event": "start", "startTime": 1675135534076, "duration": 0}, {"event": 3, "startTime": 1675135534076, "duration": 0}"#),
         "ad break p1, ad a1, event #2: event is not a string"),
        (Body.events(#"{"event": "start", "startTime": 1675135534076, "duration": 0, "signalingUrls": ["http://a", 5]}"#),
         "ad break p1, ad a1, event start: signalingUrls[1] is not a string"),
        // Absurd numbers, each named where it is.
        (Body.start(duration: "-30"), "ad break p1, ad a1, event start: duration -30 ms is negative"),
        (Body.start(duration: "86400001"), "ad break p1, ad a1, event start: duration 86400001 ms is over a day"),
        (Body.start(startTime: "253402300799000"), "ad break p1, ad a1, event start: startTime 253402300799000 (9999-12-31T23:59:59.000Z) is outside 2000-01-01..2100-01-01"),
        (Body.start(startTime: "946684799999"), "ad break p1, ad a1, event start: startTime 946684799999 (1999-12-31T23:59:59.999Z) is outside"),
        (Body.start(startTime: "-5"), "ad break p1, ad a1, event start: startTime -5 (1969-12-31T23:59:59.995Z) is outside"),
        // Found by fuzzing: formatting this time for the reason trapped.
        (Body.start(startTime: "-9223372036854775808"),
         "ad break p1, ad a1, event start: startTime -9223372036854775808 (-9223372036854775808 ms since 1970) is outside"),
        (Body.start(startTime: #""NaN""#), "ad break p1, ad a1, event start: startTime is not a number of milliseconds"),
        (Body.start(duration: #""Infinity""#), "ad break p1, ad a1, event start: duration is not a number of milliseconds"),
        (Body.start(duration: "NaN"), "not valid JSON"),
        (Body.start(startTime: "null"), "ad break p1, ad a1, event start: startTime is not a number of milliseconds"),
        (Body.start(duration: "1e400"), "ad break p1, ad a1, event start: duration is not a number of milliseconds"),
        (Body.start(startTime: "99999999999999999999999"), "ad break p1, ad a1, event start: startTime 1e+23 is out of range"),
        (#"{"dataRange": {"start": 1e19, "end": 1675135564574}}"#, "dataRange: start 1e+19 is out of range"),
        (Body.adBreaks(#"{"id": "p9", "startTime": 1.5, "duration": 1}"#), "ad break p9: startTime 2 (1970-01-01T00:00:00.002Z) is outside"),
        (Body.adBreaks(#"{"id": "p9", "startTime": 1675135534076, "duration": -0.5}"#), "ad break p9: duration -1 ms is negative"),
        (Body.adBreaks(#"{"id": "p9", "startTime": 1675135534076}"#), "ad break p9: missing 'duration'"),
        (Body.ads(#"{"id": "a9", "startTime": 1675135534076}"#), "ad break p1, ad a9: missing 'duration'"),
        (#"{"dataRange": {"start": 1675135140683, "end": 4102444800001}}"#, "dataRange: end 4102444800001 (2100-01-01T00:00:00.001Z) is outside"),
        (#"{"dataRange": {"start": 1675135564574, "end": 1675135140683}}"#, "dataRange: end 2023-01-31T03:19:00.683Z is before start"),
    ] as [(String, String)])
    func rejects(body: String, reason: String) {
        do {
            let document = try MetadataDocument.decode(Fixture.json(body))
            Issue.record("accepted \(body) as \(document)")
        } catch {
            #expect(error.reason.hasPrefix(reason), "reason '\(error.reason)' should start with '\(reason)'")
        }
    }

    /// One bad event rejects the whole document: nothing of it is applied, so the caller keeps
    /// the previous state whole rather than half of a broken refresh.
    @Test func oneBadEventRejectsTheWholeDocument() {
        let good = #"{"id": "p0", "startTime": 1675135500000, "duration": 1000}"#
        let bad = #"{"id": "p1", "startTime": 1675135534076, "duration": 1000, "ads": [{"id": "a1", "startTime": 1675135534076, "duration": 1000, "trackingEvents": [{"event": "start", "startTime": 1675135534076, "duration": -1}]}]}"#
        #expect(throws: MetadataError.self) { try MetadataDocument.decode(Fixture.json(Body.adBreaks(good + ", " + bad))) }
    }

    @Test func acceptsTheBoundsOfTheValidTimes() throws {
        let document = try MetadataDocument.decode(Fixture.json(#"{"dataRange": {"start": 946684800000, "end": 4102444800000}}"#))
        #expect(document.dataRange == DataRange(start: MetadataDocument.validTimes.lowerBound, end: MetadataDocument.validTimes.upperBound))
        #expect(UTCTime.format(MetadataDocument.validTimes.lowerBound) == "2000-01-01T00:00:00.000Z")
        #expect(UTCTime.format(MetadataDocument.validTimes.upperBound) == "2100-01-01T00:00:00.000Z")
        #expect(try MetadataDocument.decode(Fixture.json(Body.start(duration: "86400000"))).adBreaks[0].ads[0].trackingEvents[1].duration == 86_400_000)
    }

    @Test(.enabled(if: Fixture.sharedFixtures != nil, Fixture.sharedFixturesMissing))
    func decodesTheCapturedSample() throws {
        let document = try MetadataDocument.decode(try Fixture.sampleMetadata())
        #expect(document.dataRange == DataRange(start: 1_675_135_140_683, end: 1_675_135_564_574))
        #expect(document.adBreaks.count == 1)
        let adBreak = try #require(document.adBreaks.first)
        #expect(adBreak.id == "418786173")
        #expect(adBreak.startTime == Fixture.t0)
        #expect(adBreak.ads.map(\.id) == ["418786173", "418786181"])
        for ad in adBreak.ads {
            #expect(ad.trackingEvents.count == 8)
            #expect(Set(ad.trackingEvents.map(\.event)) == Set(Fixture.playbackTypes + [.clickTracking, .clickAbstractType]))
            #expect(ad.trackingEvents.allSatisfy { $0.reportingState == .idle && $0.signalingURLs.count == 1 })
            #expect(ad.trackingEvents.allSatisfy { $0.signalingURLs[0].hasPrefix("http://127.0.0.1:4647/beacon?") })
        }
        let second = adBreak.ads[1]
        #expect(second.startTime == 1_675_135_564_106)
        #expect(second.duration == 468)
        // Its events run 30 s although the ad is cut to 468 ms.
        let impression = try #require(second.trackingEvents.first { $0.event == .impression })
        #expect(impression.duration == 30_030)
        let complete = try #require(second.trackingEvents.first { $0.event == .complete })
        #expect(complete.startTime - second.startTime == 30_030)
        #expect(adBreak.ads[0].duration == 30_030)
    }
}

/// Metadata bodies around the sample's times, as JSON text.
private enum Body {
    /// A document with the sample's data range around `adBreaks` (JSON text).
    static func adBreaks(_ adBreaks: String) -> String {
        #"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "adBreaks": [\#(adBreaks)]}"#
    }

    /// One ad break p1 holding `ads` (JSON text).
    static func ads(_ ads: String) -> String {
        adBreaks(#"{"id": "p1", "startTime": 1675135534076, "duration": 30000, "ads": [\#(ads)]}"#)
    }

    /// One ad break p1 holding one ad a1 holding `events` (JSON text).
    static func events(_ events: String) -> String {
        adBreaks(#"{"id": "p1", "startTime": 1675135534076, "duration": 30000, "ads": [{"id": "a1", "startTime": 1675135534076, "duration": 30000, "trackingEvents": [\#(events)]}]}"#)
    }

    /// Ad a1's impression, then its start event with `startTime` and `duration` as given (JSON text).
    static func start(startTime: String = "1675135534076", duration: String = "0") -> String {
        events(#"{"event": "impression", "startTime": 1675135534076, "duration": 30000}, {"event": "start", "startTime": \#(startTime), "duration": \#(duration)}"#)
    }
}
