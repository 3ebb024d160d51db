import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// Read liberally, reject only what cannot be used: the shapes real clients accept are read, by
/// the fast reader and by JSONDecoder alike.
@Suite(.timeLimit(.minutes(2))) struct LiberalReadingTests {
    static let range = #""dataRange": {"start": 1675135140683, "end": 1675135564574}"#

    /// The document `body`'s first ad break's first ad, read by both readers, which must agree.
    private func firstAd(_ ad: String, fastReader: Bool = true) throws -> Ad {
        let body = Fixture.json(#"{\#(Self.range), "adBreaks": [{"id": "p1", "startTime": 1675135534076, "duration": 30000, "ads": [\#(ad)]}]}"#)
        let document = try MetadataDocument.decode(body)
        #expect(try MetadataDocument.decodeWithJSONDecoder(body) == document)
        #expect((MetadataParser.parse(body) != nil) == fastReader)
        if let parsed = MetadataParser.parse(body) { #expect(parsed == document) }
        // What was read survives the wire format beaconctl writes itself.
        #expect(try MetadataDocument.decode(Array(document.encodedJSON().utf8)) == document)
        return try #require(document.adBreaks.first?.ads.first)
    }

    private func events(_ events: String) throws -> [TrackingEvent] {
        try firstAd(#"{"id": "a1", "startTime": 1675135534076, "duration": 30000, "trackingEvents": [\#(events)]}"#).trackingEvents
    }

    @Test func anEventWithoutDurationLastsZeroAndGetsTheMinimumWindow() throws {
        let event = try #require(try events(#"{"event": "start", "startTime": 1675135534076, "signalingUrls": ["http://127.0.0.1:4647/s"]}"#).first)
        #expect(event.duration == 0)
        #expect(event.window == 1_675_135_534_076...1_675_135_535_076)
    }

    @Test(arguments: [
        ("1675135534076.4", 1_675_135_534_076), ("1675135534076.5", 1_675_135_534_077), ("1675135534076.499", 1_675_135_534_076),
        ("1675135534076.999", 1_675_135_534_077), ("1675135534076.0", 1_675_135_534_076),
    ] as [(String, Milliseconds)])
    func fractionalMillisecondsAreRoundedToTheNearest(written: String, expected: Milliseconds) throws {
        let event = try #require(try events(#"{"event": "start", "startTime": \#(written), "duration": 2.5}"#).first)
        #expect(event.startTime == expected)
        #expect(event.duration == 3)
    }

    /// Past three decimals, or with an exponent, JSONDecoder reads the number, as the `Double` nearest to it.
    @Test(arguments: [("1675135534076.3999", 1_675_135_534_076), ("1675135534076.6001", 1_675_135_534_077), ("1.675135534076e12", 1_675_135_534_076)]
        as [(String, Milliseconds)])
    func otherFractionsAreJSONDecodersToRound(written: String, expected: Milliseconds) throws {
        let ad = try firstAd(
            #"{"id": "a1", "startTime": 1675135534076, "duration": 30000, "trackingEvents": [{"event": "start", "startTime": \#(written), "duration": 2.5}]}"#,
            fastReader: false)
        let event = try #require(ad.trackingEvents.first)
        #expect(event.startTime == expected)
        #expect(event.duration == 3)
    }

    @Test func integerIdsAreReadAsTheirDecimalText() throws {
        let ad = try firstAd(#"{"id": 269098714, "startTime": 1675135534076, "duration": 13385, "trackingEvents": []}"#)
        #expect(ad.id == "269098714")
        let body = Fixture.json(#"{\#(Self.range), "adBreaks": [{"id": 269098710, "startTime": 1675135534076, "duration": 0}]}"#)
        #expect(try MetadataDocument.decode(body).adBreaks.map(\.id) == ["269098710"])
        #expect(MetadataParser.parse(body) == (try MetadataDocument.decodeWithJSONDecoder(body)))
    }

    @Test func eventTypesAreMatchedWhateverTheirLetterCase() throws {
        let read = try events(
            #"{"event": "Impression", "startTime": 1675135534076}, {"event": "FIRSTQUARTILE", "startTime": 1675135534076}, {"event": "pAuSe", "startTime": 1675135534076}, {"event": "AcceptInvitation", "startTime": 1675135534076}"#)
        #expect(read.map(\.event) == [.impression, .firstQuartile, .pause, TrackingEventType(rawValue: "AcceptInvitation")])
        // The canonical spelling is kept: in status, the journal and metrics alike.
        #expect(read.map(\.event.rawValue) == ["impression", "firstQuartile", "pause", "AcceptInvitation"])
        #expect(read.map(\.event.trigger) == [.playback, .playback, .userAction, .unknown])
        #expect(TrackingEventType(named: "VERIFICATIONNOTEXECUTED") == .verificationNotExecuted)
    }

    /// Companion ads, icons and verifications are kept on their ad; a verification's
    /// verificationNotExecuted joins the ad's own events, to go with its impression.
    @Test func whatIsAttachedToAnAdIsKept() throws {
        let ad = try firstAd(
            #"""
            {"id": "a1", "startTime": 1675135534076, "duration": 30000,
             "trackingEvents": [{"event": "impression", "startTime": 1675135534076, "duration": 30000, "signalingUrls": ["http://127.0.0.1:4647/i"]}],
             "companionAds": {"attributes": {"required": "all"}, "companion": [{"staticResource": "x", "trackingEvents": [
                {"event": "clickTracking", "startTime": 1675135534076, "duration": 15015, "signalingUrls": ["http://127.0.0.1:4647/c1", "http://127.0.0.1:4647/c2"]},
                {"event": "creativeView", "signalingUrls": ["http://127.0.0.1:4647/cv"]}, {"no": "event"}]}]},
             "icons": [{"iconClicks": {"iconClickThrough": "x", "iconClickTracking": [{"uri": "http://127.0.0.1:4647/ic"}]},
                        "iconViewTracking": ["http://127.0.0.1:4647/iv"]}, 7],
             "adVerifications": [{"vendor": "v1", "trackingEvents": [
                {"event": "verificationNotExecuted", "startTime": 1675135534076, "duration": 30000, "signalingUrls": ["http://127.0.0.1:4647/v?r=[REASON]"]}]},
               {"vendor": "v2", "trackingEvents": [{"event": "viewableImpression", "startTime": 1675135534076, "signalingUrls": ["http://127.0.0.1:4647/vi"]}]}]}
            """#, fastReader: false)
        #expect(ad.trackingEvents.map(\.event) == [.impression, .verificationNotExecuted])
        #expect(ad.trackingEvents[1].signalingURLs == ["http://127.0.0.1:4647/v?r=[REASON]"])
        #expect(
            ad.attachedTracking == [
                AttachedTracking(
                    source: .companion, event: .clickTracking, startTime: 1_675_135_534_076,
                    signalingURLs: ["http://127.0.0.1:4647/c1", "http://127.0.0.1:4647/c2"]),
                AttachedTracking(source: .companion, event: .creativeView, startTime: nil, signalingURLs: ["http://127.0.0.1:4647/cv"]),
                AttachedTracking(source: .icon, event: AttachedTracking.iconView, startTime: nil, signalingURLs: ["http://127.0.0.1:4647/iv"]),
                AttachedTracking(source: .icon, event: AttachedTracking.iconClick, startTime: nil, signalingURLs: ["http://127.0.0.1:4647/ic"]),
                AttachedTracking(
                    source: .verification, event: TrackingEventType(rawValue: "viewableImpression"), startTime: 1_675_135_534_076,
                    signalingURLs: ["http://127.0.0.1:4647/vi"]),
            ])
    }

    /// What the daemon only lists cannot make a document unusable.
    @Test func anUnreadableAttachmentIsLeftOut() throws {
        let ad = try firstAd(
            #"{"id": "a1", "startTime": 1675135534076, "duration": 30000, "companionAds": [1], "icons": "x", "adVerifications": [{"trackingEvents": 5}]}"#,
            fastReader: false)
        #expect(ad.attachedTracking.isEmpty)
        #expect(ad.trackingEvents.isEmpty)
    }

    /// Only what cannot be used is rejected, with the reason.
    @Test func whatCannotBeUsedIsStillRejected() {
        for (event, reason) in [
            (#"{"event": "start"}"#, "ad break p1, ad a1, event start: missing 'startTime'"),
            (#"{"event": "start", "startTime": "soon"}"#, "ad break p1, ad a1, event start: startTime is not a number of milliseconds"),
            (#"{"event": "start", "startTime": 1675135534076, "duration": -1.5}"#, "ad break p1, ad a1, event start: duration -2 ms is negative"),
        ] {
            let body = Fixture.json(
                #"{\#(Self.range), "adBreaks": [{"id": "p1", "startTime": 1675135534076, "duration": 30000, "ads": [{"id": "a1", "startTime": 1675135534076, "duration": 30000, "trackingEvents": [\#(event)]}]}]}"#)
            #expect(throws: MetadataError(reason: reason)) { try MetadataDocument.decode(body) }
        }
    }

    /// Every published Harmonic document is accepted whole.
    @Test(.enabled(if: Fixture.sharedFixtures != nil, Fixture.sharedFixturesMissing))
    func everyHarmonicDocumentIsAccepted() throws {
        let documents = try Fixture.harmonicDocuments()
        #expect(documents.count == 6)
        for (name, body) in documents {
            let document = try MetadataDocument.decode(body)
            #expect(!document.adBreaks.isEmpty, "\(name)")
            if let parsed = MetadataParser.parse(body) { #expect(parsed == document, "\(name)") }
        }
        let verifications = try MetadataDocument.decode(try #require(documents.first { $0.name == "android-adVerifications.json" }?.body))
        #expect(verifications.adBreaks[0].ads[0].trackingEvents.map(\.event) == [.impression, .verificationNotExecuted, .verificationNotExecuted])
        let icons = try MetadataDocument.decode(try #require(documents.first { $0.name == "android-adChoices.json" }?.body))
        #expect(icons.adBreaks[0].ads.map(\.id) == ["269098710", "269098714"])
        #expect(icons.adBreaks[0].ads[0].attachedTracking.map(\.event) == [AttachedTracking.iconView, AttachedTracking.iconClick])
        let companion = try MetadataDocument.decode(try #require(documents.first { $0.name == "android-normal.json" }?.body))
        #expect(companion.adBreaks[0].ads[0].attachedTracking.map(\.source) == [.companion, .companion])
    }
}
