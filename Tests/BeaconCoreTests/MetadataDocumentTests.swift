import Foundation
import Testing
@testable import BeaconCore

@Suite struct MetadataDocumentTests {
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
        let expected = Pod(
            id: "p1", startTime: 1_675_135_534_076, duration: 30_000,
            ads: [
                Ad(
                    id: "a1", startTime: 1_675_135_534_076, duration: 30_000,
                    trackingEvents: [
                        TrackingEvent(
                            event: .impression, startTime: 1_675_135_534_076, duration: 30_000,
                            signalingUrls: ["http://127.0.0.1:4647/i", "http://127.0.0.1:4647/j"])
                    ])
            ])
        #expect(document.pods == [expected])
        #expect(document.pods[0].ads[0].trackingEvents[0].reportingState == .idle)
    }

    @Test func ignoresUnknownFields() throws {
        let body = """
            {"dataRange": {"start": 1, "end": 2, "zone": "x"}, "vendor": {"a": [1, 2]},
             "adBreaks": [{"id": "p", "startTime": 10, "duration": 5, "kind": 3,
               "ads": [{"id": "a", "startTime": 10, "duration": 5, "clickThrough": "http://127.0.0.1/c",
                 "trackingEvents": [{"event": "start", "startTime": 10, "duration": 0, "signalingUrls": [], "extra": null}]}]}]}
            """
        let document = try MetadataDocument.decode(Fixture.json(body))
        #expect(document.pods.count == 1)
        #expect(document.pods[0].ads[0].trackingEvents.map(\.event) == [.start])
    }

    @Test func missingListsAreEmpty() throws {
        let document = try MetadataDocument.decode(
            Fixture.json(#"{"dataRange": {"start": 1, "end": 2}, "adBreaks": [{"id": "p", "startTime": 1, "duration": 0}]}"#))
        #expect(document.pods.map(\.id) == ["p"])
        #expect(document.pods[0].ads.isEmpty)
        let bare = try MetadataDocument.decode(Fixture.json(#"{"dataRange": {"start": 1, "end": 2}}"#))
        #expect(bare.pods.isEmpty)
    }

    @Test func keepsUnknownEventTypesAsTheyAreNamed() throws {
        let body = #"""
            {"dataRange": {"start": 1, "end": 2}, "adBreaks": [{"id": "p", "startTime": 1, "duration": 1, "ads": [
              {"id": "a", "startTime": 1, "duration": 1, "trackingEvents": [
                {"event": "acceptInvitationLinear", "startTime": 1, "duration": 0, "signalingUrls": []}]}]}]}
            """#
        let event = try MetadataDocument.decode(Fixture.json(body)).pods[0].ads[0].trackingEvents[0]
        #expect(event.event.rawValue == "acceptInvitationLinear")
        #expect(event.event.trigger == .unknown)
    }

    /// A rejected body names what is wrong with it.
    @Test(arguments: [
        ("not json at all", "JSON"),
        ("", "JSON"),
        (#"{"dataRange": {"start": 1, "end": 2}"#, "JSON"),
        (#"{"adBreaks": []}"#, "dataRange"),
        (#"[1, 2]"#, "not a JSON object"),
        (#"{"dataRange": {"start": "1", "end": 2}}"#, "start"),
        (#"{"dataRange": {"start": 1, "end": 2}, "adBreaks": [{"id": 7, "startTime": 1, "duration": 1}]}"#, "id"),
        (#"{"dataRange": {"start": 1, "end": 2}, "adBreaks": [{"id": "p", "startTime": 1, "duration": -1}]}"#, "duration"),
        (#"{"dataRange": {"start": 1, "end": 2}, "adBreaks": [{"id": "p", "startTime": 1, "duration": 1, "ads": [{"id": "a", "startTime": 1, "duration": -30}]}]}"#, "duration"),
        (#"{"dataRange": {"start": 1, "end": 2}, "adBreaks": [{"id": "p", "startTime": 1, "duration": 1, "ads": [{"id": "a", "startTime": 1, "duration": 1, "trackingEvents": [{"event": "start", "startTime": 1, "duration": -1}]}]}]}"#, "duration"),
        (#"{"dataRange": {"start": 1, "end": 253402300800000}}"#, "9999"),
        (#"{"dataRange": {"start": -5, "end": 2}}"#, "1970"),
        (#"{"dataRange": {"start": 1, "end": 2}, "adBreaks": [{"id": "p", "startTime": 253402300800000, "duration": 0}]}"#, "9999"),
        (#"{"dataRange": {"start": 1, "end": 2}, "adBreaks": [{"id": "p", "startTime": 253402300799000, "duration": 5000}]}"#, "duration"),
        (#"{"dataRange": {"start": 1, "end": 2}, "adBreaks": [{"id": "p", "startTime": 1, "duration": 1, "ads": [{"id": "a", "startTime": 1, "duration": 1, "trackingEvents": [{"event": 3, "startTime": 1, "duration": 0}]}]}]}"#, "event"),
    ] as [(String, String)])
    func rejects(body: String, reasonMentions word: String) {
        do {
            let document = try MetadataDocument.decode(Fixture.json(body))
            Issue.record("accepted \(body) as \(document)")
        } catch {
            #expect(!error.reason.isEmpty)
            #expect(error.reason.contains(word), "reason '\(error.reason)' should mention '\(word)'")
        }
    }

    @Test func rejectsFractionalMilliseconds() {
        #expect(throws: MetadataError.self) {
            try MetadataDocument.decode(
                Fixture.json(#"{"dataRange": {"start": 1, "end": 2}, "adBreaks": [{"id": "p", "startTime": 1.5, "duration": 1}]}"#))
        }
    }

    @Test func acceptsTheLastMillisecondOfYear9999() throws {
        let document = try MetadataDocument.decode(Fixture.json(#"{"dataRange": {"start": 0, "end": 253402300799999}}"#))
        #expect(document.dataRange.end == MetadataDocument.latestTime)
    }

    @Test func decodesTheCapturedSample() throws {
        let document = try MetadataDocument.decode(try Fixture.sampleMetadata())
        #expect(document.dataRange == DataRange(start: 1_675_135_140_683, end: 1_675_135_564_574))
        #expect(document.pods.count == 1)
        let pod = try #require(document.pods.first)
        #expect(pod.id == "418786173")
        #expect(pod.startTime == Fixture.t0)
        #expect(pod.ads.map(\.id) == ["418786173", "418786181"])
        for ad in pod.ads {
            #expect(ad.trackingEvents.count == 8)
            #expect(Set(ad.trackingEvents.map(\.event)) == Set(Fixture.playbackTypes + [.clickTracking, .clickAbstractType]))
            #expect(ad.trackingEvents.allSatisfy { $0.reportingState == .idle && $0.signalingUrls.count == 1 })
            #expect(ad.trackingEvents.allSatisfy { $0.signalingUrls[0].hasPrefix("http://127.0.0.1:4647/beacon?") })
        }
        let second = pod.ads[1]
        #expect(second.startTime == 1_675_135_564_106)
        #expect(second.duration == 468)
        // Its events run 30 s although the ad is cut to 468 ms.
        let impression = try #require(second.trackingEvents.first { $0.event == .impression })
        #expect(impression.duration == 30_030)
        let complete = try #require(second.trackingEvents.first { $0.event == .complete })
        #expect(complete.startTime - second.startTime == 30_030)
        #expect(pod.ads[0].duration == 30_030)
    }
}
