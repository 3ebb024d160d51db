import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The fast reader of the metadata's shape against JSONDecoder, the authority: what it reads,
/// it reads to JSONDecoder's document; what it is not sure of, it leaves to JSONDecoder.
@Suite(.timeLimit(.minutes(2))) struct MetadataParserTests {
    /// Bodies the fast reader must read, each to exactly the document JSONDecoder reads.
    @Test(arguments: [
        // The shape, plainly.
        Shape.events(Shape.event),
        #"{"dataRange": {"start": 1675135140683, "end": 1675135564574}}"#,
        // Null and empty lists, at every level.
        #"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "adBreaks": null}"#,
        #"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "adBreaks": []}"#,
        Shape.adBreaks(#"{"id": "p", "startTime": 1675135534076, "duration": 0, "ads": null}"#),
        Shape.adBreaks(#"{"id": "p", "startTime": 1675135534076, "duration": 0, "ads": []}"#),
        Shape.ads(#"{"id": "a", "startTime": 1675135534076, "duration": 0, "trackingEvents": null}"#),
        Shape.ads(#"{"id": "a", "startTime": 1675135534076, "duration": 0, "trackingEvents": []}"#),
        Shape.events(#"{"event": "start", "startTime": 1675135534076, "duration": 0, "signalingUrls": null}"#),
        Shape.events(#"{"event": "start", "startTime": 1675135534076, "duration": 0, "signalingUrls": []}"#),
        Shape.events(#"{"event": "start", "startTime": 1675135534076, "duration": 0}"#),
        // Unknown keys of every JSON type at every level, numbers of every form among them.
        #"""
        {"version": "2", "dataRange": {"zone": null, "start": 1675135140683, "end": 1675135564574, "f": 1.5},
         "n": [0, -0, 12, -3.25, 1e400, -1.5E-7, 0.0e+0, 2E+2, true, false, null, "s", [], {}],
         "adBreaks": [{"kind": {"a": {"b": [1, {"c": null}, [[[]]]]}}, "id": "p", "startTime": 1675135534076,
           "duration": 30000, "live": true,
           "ads": [{"clickThrough": "http://127.0.0.1/c", "id": "a", "startTime": 1675135534076, "duration": 30000,
             "skip": false, "trackingEvents": [{"extra": [], "event": "impression", "startTime": 1675135534076,
             "duration": 0, "signalingUrls": ["http://127.0.0.1:4647/i"], "w": -0.5e-3}]}]}], "tail": {}}
        """#,
        // A known key of another level is unknown here, whatever its type.
        Shape.adBreaks(#"{"id": "p", "startTime": 1675135534076, "duration": 0, "trackingEvents": "x", "event": 5, "start": null}"#),
        Shape.events(#"{"event": "start", "id": 7, "ads": {}, "startTime": 1675135534076, "duration": 0, "end": "x"}"#),
        #"{"ads": 1, "start": "x", "dataRange": {"start": 1675135140683, "end": 1675135564574, "id": []}}"#,
        // An unknown key twice: JSONDecoder ignores it both times.
        #"{"x": 1, "dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": [2]}"#,
        // Fields in any order.
        Shape.events(#"{"signalingUrls": ["http://127.0.0.1:4647/s"], "duration": 5, "startTime": 1675135534076, "event": "start"}"#),
        // Escapes JSON defines, surrogate pairs, NUL.
        Shape.events(#"{"event": "st\"a\\r\/t\b\f\n\r\t", "startTime": 1675135534076, "duration": 0, "signalingUrls": ["http://127.0.0.1:4647/\u00e9\u20AC\uD83D\uDE00\u0000x"]}"#),
        Shape.adBreaks(#"{"id": "\"\\\/", "startTime": 1675135534076, "duration": 0, "note": "\u12aB\n\uDBFF\uDFFF"}"#),
        // Unicode written as it is: two, three and four bytes, a decomposed accent, a noncharacter, DEL.
        Shape.adBreaks(#"{"id": "pöd-€-😀-e\#u{301}-\#u{FFFF}-\#u{7F}", "startTime": 1675135534076, "duration": 0}"#),
        Shape.events(#"{"event": "中文", "startTime": 1675135534076, "duration": 0, "signalingUrls": ["http://127.0.0.1:4647/ü"]}"#),
        // Read liberally: no duration, fractional milliseconds, integer ids, event types in any letter case.
        Shape.events(#"{"event": "start", "startTime": 1675135534076, "signalingUrls": ["http://127.0.0.1:4647/s"]}"#),
        Shape.events(#"{"event": "start", "startTime": 1675135534076.5, "duration": 0.499}"#),
        Shape.events(#"{"event": "start", "startTime": 1675135534076.499, "duration": 1000.5}"#),
        Shape.events(#"{"event": "start", "startTime": 1675135534076.0, "duration": 0.0}"#),
        Shape.start(duration: "-0.5"),
        Shape.start(duration: "-2.5"),
        #"{"dataRange": {"start": 1675135140683.7, "end": 1675135564574.25}}"#,
        Shape.adBreaks(#"{"id": 269098710, "startTime": 1675135534076, "duration": 0, "ads": [{"id": -7, "startTime": 1675135534076, "duration": 0}]}"#),
        Shape.events(#"{"event": "Impression", "startTime": 1675135534076}, {"event": "FIRSTQUARTILE", "startTime": 1675135534076}"#),
        // A "." inside a skipped number is JSON's to read.
        Shape.adBreaks(#"{"id": "p", "startTime": 1675135534076, "duration": 0, "x": 0.12345}"#),
        // Whitespace: none, and every kind JSON allows, everywhere.
        #"{"dataRange":{"start":1675135140683,"end":1675135564574},"adBreaks":[{"id":"p","startTime":1675135534076,"duration":0,"ads":[]}]}"#,
        " \t\r\n{ \t\r\n\"dataRange\" \t\r\n: \t\r\n{\r\n\"start\"\r\n:\r\n1675135140683\r\n,\r\n\"end\":1675135564574\t}\t,\n\"adBreaks\"\n:\n[\n{\"id\"\n:\n\"p\"\n,\"startTime\":1675135534076 ,\"duration\" :0 , \"ads\" : [ ] } ] , \"x\" : [ 1 , { } ] \n} \t\r\n",
        // The integers at the ends of Int64, and zero (rejected later, by the checks of times).
        Shape.events(#"{"event": "start", "startTime": -9223372036854775808, "duration": 9223372036854775807}"#),
        Shape.events(#"{"event": "start", "startTime": 0, "duration": -1}"#),
        // Event types beaconctl does not know keep their name.
        Shape.events(#"{"event": "acceptInvitationLinear", "startTime": 1675135534076, "duration": 0}"#),
    ])
    func readsAsJSONDecoderDoes(body: String) throws {
        try expectSameDocument(Fixture.json(body))
    }

    @Test(.enabled(if: Fixture.sharedFixtures != nil, Fixture.sharedFixturesMissing))
    func readsTheCapturedSampleAsJSONDecoderDoes() throws {
        try expectSameDocument(try Fixture.sampleMetadata())
    }

    /// The wire format beaconctl writes itself, with many ad breaks, ads and events.
    @Test func readsTheWireFormatAsJSONDecoderDoes() throws {
        let adBreaks = (0..<20).map { Fixture.adBreak(id: "pod-\($0)", start: Fixture.t0 + Milliseconds($0) * 600_000) }
        let document = Fixture.document(adBreaks)
        try expectSameDocument(Array(document.encodedJSON().utf8))
        #expect(MetadataParser.parse(Array(document.encodedJSON().utf8)) == document)
    }

    /// A body reads the same from any collection of bytes, contiguous or not.
    @Test func readsAnyCollectionOfBytes() throws {
        let body = Fixture.json(Shape.events(Shape.event))
        let expected = try #require(MetadataParser.parse(body))
        #expect(MetadataParser.parse(Data(body)) == expected)
        #expect(MetadataParser.parse(body.lazy.map { $0 }) == expected)
        #expect(MetadataParser.parse(body[...]) == expected)
    }

    /// Bodies the fast reader must leave to JSONDecoder, and what `decode` makes of them, as it
    /// did before the fast reader: the reason, or nil where JSONDecoder accepts the body.
    @Test(arguments: [
        // Numbers JSONDecoder reads its own way, or not at all, where milliseconds belong.
        (Shape.start(duration: "1.0005"), nil),
        (Shape.start(duration: "1.5e0"), nil),
        (Shape.start(startTime: "8796093022208.5"), "ad break p1, ad a1, event start: startTime 8796093022209 (2248-"),
        (Shape.start(duration: "01.5"), "ad break p1, ad a1, event start: duration is not a number of milliseconds"),
        (Shape.start(duration: "1."), "ad break p1, ad a1, event start: duration is not a number of milliseconds"),
        (Shape.start(duration: "1e3"), nil),
        (Shape.start(duration: "1E3"), nil),
        (Shape.start(startTime: "1.675135534076e12"), nil),
        (Shape.start(duration: "-0"), nil),
        (Shape.start(duration: "01"), "ad break p1, ad a1, event start: duration is not a number of milliseconds"),
        (Shape.start(duration: "-01"), "ad break p1, ad a1, event start: duration is not a number of milliseconds"),
        (Shape.start(startTime: "9223372036854775808"), "ad break p1, ad a1, event start: startTime 9.223372036854776e+18 is out of range"),
        (Shape.start(startTime: "-9223372036854775809"), "ad break p1, ad a1, event start: startTime -9223372036854775808 (-9223372036854775808 ms since 1970) is outside"),
        (Shape.start(duration: "-"), "ad break p1, ad a1, event start: duration is not a number of milliseconds"),
        // A known key twice in one object.
        (Shape.adBreaks(#"{"id": "p1", "id": "p2", "startTime": 1675135534076, "duration": 0}"#), nil),
        (Shape.start(duration: "0, \"duration\": 5"), nil),
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "dataRange": {"start": 1675135140683, "end": 1675135564574}}"#, nil),
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "adBreaks": null, "adBreaks": []}"#, nil),
        // A wrong type for a known key.
        (Shape.adBreaks(#"{"id": 7.5, "startTime": 1675135534076, "duration": 1}"#), "ad break #1: id is not a string or an integer"),
        (Shape.adBreaks(#"{"id": 18446744073709551615, "startTime": 1675135534076, "duration": 1}"#), nil),
        (Shape.adBreaks(#"{"id": true, "startTime": 1675135534076, "duration": 1}"#), "ad break #1: id is not a string or an integer"),
        (Shape.start(startTime: #""1675135534076""#), "ad break p1, ad a1, event start: startTime is not a number of milliseconds"),
        (Shape.start(startTime: "null"), "ad break p1, ad a1, event start: startTime is not a number of milliseconds"),
        (Shape.start(duration: "true"), "ad break p1, ad a1, event start: duration is not a number of milliseconds"),
        (Shape.start(duration: "null"), nil),
        (Shape.adBreaks(#"{"id": "p1", "startTime": 1675135534076, "duration": 1, "ads": {}}"#), "ad break p1: ads is not of the expected type"),
        (Shape.events(#"{"event": "start", "startTime": 1675135534076, "duration": 0, "signalingUrls": "http://a"}"#),
         "ad break p1, ad a1, event start: signalingUrls is not of the expected type"),
        (Shape.events(#"{"event": "start", "startTime": 1675135534076, "duration": 0, "signalingUrls": [null]}"#),
         "ad break p1, ad a1, event start: signalingUrls[0] is not a string"),
        (Shape.events(#"{"event": null, "startTime": 1675135534076, "duration": 0}"#), "ad break p1, ad a1, event #1: event is not a string"),
        (#"{"dataRange": [1675135140683, 1675135564574]}"#, "dataRange is not of the expected type"),
        (#"[{"dataRange": {"start": 1675135140683, "end": 1675135564574}}]"#, "the document is not a JSON object"),
        // A required key missing.
        (#"{"adBreaks": []}"#, "missing 'dataRange'"),
        (#"{"dataRange": {"start": 1675135140683}}"#, "missing 'end' in dataRange"),
        (Shape.adBreaks(#"{"startTime": 1675135534076, "duration": 1}"#), "ad break #1: missing 'id'"),
        (Shape.events(#"{"event": "start"}"#), "ad break p1, ad a1, event start: missing 'startTime'"),
        (Shape.adBreaks(#"{"id": "p1", "startTime": 1675135534076}"#), "ad break p1: missing 'duration'"),
        // What is attached to an ad: companion ads, icons, verifications.
        (Shape.ads(#"{"id": "a", "startTime": 1675135534076, "duration": 0, "icons": []}"#), nil),
        (Shape.ads(#"{"id": "a", "startTime": 1675135534076, "duration": 0, "companionAds": {"companion": []}}"#), nil),
        (Shape.ads(#"{"id": "a", "startTime": 1675135534076, "duration": 0, "adVerifications": "x"}"#), nil),
        // Not one JSON value, or not JSON at all.
        (Shape.events(Shape.event) + " x", "not valid JSON"),
        (Shape.events(Shape.event) + "{}", "not valid JSON"),
        (Shape.events(Shape.event) + "\u{0C}", "not valid JSON"),
        ("\u{FEFF}" + Shape.events(Shape.event), nil),
        (String(Shape.events(Shape.event).dropLast()), "not valid JSON"),
        (String(Shape.events(Shape.event).prefix(150)), "not valid JSON"),
        ("", "not valid JSON"),
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": NaN}"#, "not valid JSON"),
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": .5}"#, "not valid JSON"),
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": tru}"#, "not valid JSON"),
        // JSONDecoder lets these through in a value it skips; the fast reader keeps to JSON's grammar.
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": [1, 2,]}"#, nil),
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": {"a": 1,}}"#, nil),
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": 1.}"#, nil),
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": 1e}"#, nil),
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": 01}"#, nil),
        // Strings: a raw control character, an escape JSON lacks, lone surrogates, an escaped key.
        (Shape.adBreaks("{\"id\": \"p\n1\", \"startTime\": 1675135534076, \"duration\": 0}"), "not valid JSON"),
        (Shape.adBreaks(#"{"id": "p\x1", "startTime": 1675135534076, "duration": 0}"#), "not valid JSON"),
        (Shape.adBreaks(#"{"id": "p\u12", "startTime": 1675135534076, "duration": 0}"#), "not valid JSON"),
        (Shape.adBreaks(#"{"id": "p\uD83D", "startTime": 1675135534076, "duration": 0}"#), "not valid JSON"),
        (Shape.adBreaks(#"{"id": "p\uDE00", "startTime": 1675135534076, "duration": 0}"#), "not valid JSON"),
        (Shape.adBreaks(#"{"id": "p\uD83D\u0041", "startTime": 1675135534076, "duration": 0}"#), "not valid JSON"),
        (#"{"d\u0061taRange": {"start": 1675135140683, "end": 1675135564574}}"#, nil),
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": {"k\u0065y": 1}}"#, nil),
        // Nesting deeper than the fast reader goes, in a skipped value.
        (#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": "# + String(repeating: "[", count: 70)
            + String(repeating: "]", count: 70) + "}", nil),
    ] as [(String, String?)])
    func leavesToJSONDecoder(body: String, reason: String?) throws {
        try expectLeftToJSONDecoder(Fixture.json(body), reason: reason)
    }

    /// Invalid UTF-8 anywhere in a string, known or skipped: a stray continuation byte, a lead
    /// byte cut short, an overlong form, an encoded surrogate, a scalar past U+10FFFF.
    @Test(arguments: [[0x80], [0xC3], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF]] as [[UInt8]])
    func leavesInvalidUTF8ToJSONDecoder(bytes: [UInt8]) throws {
        let known = Fixture.json(#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "adBreaks": [{"id": "p"#)
            + bytes + Fixture.json(#"", "startTime": 1675135534076, "duration": 0}]}"#)
        let skippedString = Fixture.json(#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x": ""#)
            + bytes + Fixture.json(#""}"#)
        let key = Fixture.json(#"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "x"#)
            + bytes + Fixture.json(#"": 1}"#)
        for body in [known, skippedString, key] {
            #expect(MetadataParser.parse(body) == nil, "read \(body)")
            let reference = Result { () throws(MetadataError) in try MetadataDocument.decodeWithJSONDecoder(body) }
            #expect(Result { () throws(MetadataError) in try MetadataDocument.decode(body) }.map(\.adBreaks) == reference.map(\.adBreaks))
        }
    }

    /// What the fast reader reads still goes through the checks of times and durations, which
    /// reject it with the reasons they always gave.
    @Test(arguments: [
        (Shape.start(duration: "-1"), "ad break p1, ad a1, event start: duration -1 ms is negative"),
        (Shape.start(startTime: "0"), "ad break p1, ad a1, event start: startTime 0 (1970-01-01T00:00:00.000Z) is outside 2000-01-01..2100-01-01"),
        (Shape.start(startTime: "-9223372036854775808"),
         "ad break p1, ad a1, event start: startTime -9223372036854775808 (-9223372036854775808 ms since 1970) is outside"),
        (#"{"dataRange": {"start": 1675135564574, "end": 1675135140683}}"#, "dataRange: end 2023-01-31T03:19:00.683Z is before start"),
    ])
    func checksWhatItReads(body: String, reason: String) throws {
        #expect(MetadataParser.parse(Fixture.json(body)) != nil)
        do {
            let document = try MetadataDocument.decode(Fixture.json(body))
            Issue.record("accepted as \(document)")
        } catch {
            #expect(error.reason.hasPrefix(reason), "reason '\(error.reason)' should start with '\(reason)'")
        }
    }

    private func expectSameDocument(_ body: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let parsed = try #require(MetadataParser.parse(body), sourceLocation: sourceLocation)
        let reference = try MetadataDocument.decodeWithJSONDecoder(body)
        #expect(parsed == reference, sourceLocation: sourceLocation)
        // String equality is Unicode's canonical equivalence: the wire format compares the bytes.
        #expect(Array(parsed.encodedJSON().utf8) == Array(reference.encodedJSON().utf8), sourceLocation: sourceLocation)
    }

    private func expectLeftToJSONDecoder(_ body: [UInt8], reason: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(MetadataParser.parse(body) == nil, "the fast reader read it", sourceLocation: sourceLocation)
        do {
            let document = try MetadataDocument.decode(body)
            #expect(reason == nil, "accepted as \(document)", sourceLocation: sourceLocation)
            #expect(document == (try MetadataDocument.decodeWithJSONDecoder(body)), sourceLocation: sourceLocation)
        } catch {
            let reason = try #require(reason, "rejected: \(error.reason)", sourceLocation: sourceLocation)
            #expect(error.reason.hasPrefix(reason), "reason '\(error.reason)' should start with '\(reason)'", sourceLocation: sourceLocation)
        }
    }
}

/// Metadata bodies around the captured sample's times, as JSON text.
private enum Shape {
    /// A tracking event with every field.
    static let event = #"{"event": "start", "startTime": 1675135534076, "duration": 0, "signalingUrls": ["http://127.0.0.1:4647/s"]}"#

    /// A document with the sample's data range around `adBreaks`.
    static func adBreaks(_ adBreaks: String) -> String {
        #"{"dataRange": {"start": 1675135140683, "end": 1675135564574}, "adBreaks": [\#(adBreaks)]}"#
    }

    /// One ad break p1 holding `ads`.
    static func ads(_ ads: String) -> String {
        adBreaks(#"{"id": "p1", "startTime": 1675135534076, "duration": 30000, "ads": [\#(ads)]}"#)
    }

    /// One ad break p1 holding one ad a1 holding `events`.
    static func events(_ events: String) -> String {
        ads(#"{"id": "a1", "startTime": 1675135534076, "duration": 30000, "trackingEvents": [\#(events)]}"#)
    }

    /// Ad a1's impression, then its start event with `startTime` and `duration` as written.
    static func start(startTime: String = "1675135534076", duration: String = "0") -> String {
        events(#"{"event": "impression", "startTime": 1675135534076, "duration": 30000}, {"event": "start", "startTime": \#(startTime), "duration": \#(duration)}"#)
    }
}
