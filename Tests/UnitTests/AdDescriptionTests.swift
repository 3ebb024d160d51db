import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// What the metadata tells of an ad besides its times (title, creative id, ad system): read in
/// both dialects, never a reason to refuse a document, kept by merges and snapshots.
@Suite(.timeLimit(.minutes(2))) struct AdDescriptionTests {
    static func harmonic(ad members: String) -> [UInt8] {
        Fixture.json(
            """
            {"dataRange": {"start": 1675135140683, "end": 1675135564574},
             "adBreaks": [{"id": "p1", "startTime": 1675135534076, "duration": 30000,
               "ads": [{"id": "a1", "startTime": 1675135534076, "duration": 30000\(members),
                 "trackingEvents": [{"event": "impression", "startTime": 1675135534076, "duration": 0, "signalingUrls": []}]}]}]}
            """)
    }

    static func mediaTailor(ad members: String) -> [UInt8] {
        Fixture.json(
            """
            {"avails": [{"availId": "5", "startTimeInSeconds": 30, "durationInSeconds": 15,
              "ads": [{"adId": "5", "startTimeInSeconds": 30, "durationInSeconds": 15\(members), "trackingEvents": []}]}]}
            """)
    }

    @Test func aHarmonicAdGivesItsTitleCreativeIDAndAdSystem() throws {
        let body = Self.harmonic(ad: #", "title": "Polar bear", "creativeId": 6, "adSystem": "GDFP""#)
        let ad = try MetadataDocument.decode(body).adBreaks[0].ads[0]
        #expect((ad.title, ad.creativeID, ad.adSystem) == ("Polar bear", "6", "GDFP"))
        // The shape's own reader leaves such an ad to JSONDecoder, which reads the same document.
        #expect(MetadataParser.parse(body) == nil)
        #expect(try MetadataDocument.decodeWithJSONDecoder(body).adBreaks[0].ads[0] == ad)
    }

    @Test func aHarmonicAdWithoutThemHasNone() throws {
        let body = Self.harmonic(ad: "")
        let ad = try MetadataDocument.decode(body).adBreaks[0].ads[0]
        #expect(ad.title == nil && ad.creativeID == nil && ad.adSystem == nil)
        #expect(MetadataParser.parse(body) != nil)
    }

    @Test(arguments: [
        #", "title": {"text": "x"}, "creativeId": [1], "adSystem": null"#,
        #", "title": true, "creativeId": 1.5, "adSystem": """#,
    ])
    func aValueOfAnotherTypeIsLeftOutNotRefused(members: String) throws {
        let harmonic = try MetadataDocument.decode(Self.harmonic(ad: members)).adBreaks[0].ads[0]
        #expect(harmonic.title == nil && harmonic.creativeID == nil && harmonic.adSystem == nil)
        let mediaTailor = try MediaTailorDocument.decode(Self.mediaTailor(ad: members.replacingOccurrences(of: #""title""#, with: #""adTitle""#)))
        let ad = mediaTailor.metadata.adBreaks[0].ads[0]
        #expect(ad.title == nil && ad.creativeID == nil && ad.adSystem == nil)
    }

    @Test func aMediaTailorAdGivesItsAdTitleCreativeIdAndAdSystem() throws {
        let document = try MediaTailorDocument.decode(Self.mediaTailor(ad: #", "adTitle": "AD-caribbean2-15", "creativeId": "1234", "adSystem": "2.0""#))
        let ad = document.metadata.adBreaks[0].ads[0]
        #expect((ad.title, ad.creativeID, ad.adSystem) == ("AD-caribbean2-15", "1234", "2.0"))
    }

    @Test(.enabled(if: Fixture.sharedFixtures != nil, Fixture.sharedFixturesMissing))
    func thePublishedMediaTailorDocumentsGiveWhatTheyHave() throws {
        let documents = Dictionary(uniqueKeysWithValues: try Fixture.mediaTailorDocuments().map { ($0.name, $0.body) })
        func ad(_ name: String) throws -> Ad { try MediaTailorDocument.decode(try #require(documents[name])).metadata.adBreaks[0].ads[0] }
        let api = try ad("aws-doc-client-side-tracking-api.json")
        #expect((api.title, api.creativeID, api.adSystem) == ("AD-caribbean2-15", "1234", "2.0"))
        let live = try ad("aws-doc-adverifications-live.json")
        #expect((live.title, live.creativeID, live.adSystem) == ("AD-polarbear-15", "00006", "2.0"))
        let bare = try ad("aws-doc-client-side-beaconing.json")
        #expect(bare.title == nil && bare.creativeID == nil && bare.adSystem == nil)
    }

    @Test func aHarmonicDocumentWrittenBackKeepsThem() throws {
        let document = try MetadataDocument.decode(Self.harmonic(ad: #", "title": "Polar bear", "creativeId": "c-1", "adSystem": "GDFP""#))
        #expect(try MetadataDocument.decode(Array(document.encodedJSON().utf8)) == document)
    }

    @Test func aRefreshUpdatesThemAndOneThatSaysNothingKeepsThem() {
        var schedule = AdSchedule()
        var ad = Fixture.ad(id: "a1", start: Fixture.t0)
        let range = DataRange(start: Fixture.t0 - 60_000, end: Fixture.t0 + 60_000)
        ad.title = "First"
        ad.creativeID = "c-1"
        _ = schedule.merge([Fixture.adBreak(id: "p1", ads: [ad])], within: range)
        ad.title = "Second"
        ad.creativeID = nil
        _ = schedule.merge([Fixture.adBreak(id: "p1", ads: [ad])], within: range)
        let merged = schedule.adBreak(id: "p1")?.ads.first
        #expect(merged?.title == "Second")
        #expect(merged?.creativeID == "c-1")
    }

    @Test func aSnapshotOfAnEarlierReleaseReadsWithNone() throws {
        let json = #"{"id": "a1", "startTime": 0, "duration": 1000, "trackingEvents": []}"#
        let ad = try JSONDecoder().decode(Ad.self, from: Data(json.utf8))
        #expect(ad == Ad(id: "a1", startTime: 0, duration: 1_000, trackingEvents: []))
    }
}
