import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct SessionEndpointsTests {
    @Test(arguments: [
        ("https://ssai.example/variant/index.m3u8?sessid=abc-123", "abc-123"),
        ("https://ssai.example/v.m3u8?x=1&sessid=s1&y=2", "s1"),
        ("https://ssai.example/v.m3u8?sessid=s%20x", "s x"),
        ("https://ssai.example/v.m3u8?sessid=", nil),
        ("https://ssai.example/v.m3u8?session=abc", nil),
        ("https://ssai.example/v.m3u8", nil),
        ("not a url at all %%%", nil),
    ] as [(String, String?)])
    func findsTheSessionID(url: String, id: String?) {
        #expect(SessionEndpoints.sessionID(in: url) == id)
    }

    @Test(arguments: [
        ("https://ssai.example/variant/1234/index.m3u8?sessid=abc", "https://ssai.example/variant/1234/metadata?sessid=abc"),
        ("https://ssai.example/index.m3u8?sessid=abc#frag", "https://ssai.example/metadata?sessid=abc"),
        ("https://ssai.example/dir/?sessid=abc", "https://ssai.example/dir/metadata?sessid=abc"),
        ("http://127.0.0.1:8080/a/b/c.mpd", "http://127.0.0.1:8080/a/b/metadata"),
        ("https://ssai.example?sessid=abc", "https://ssai.example/metadata?sessid=abc"),
    ] as [(String, String)])
    func derivesTheTrackingURL(manifest: String, tracking: String) {
        #expect(SessionEndpoints.trackingURL(forManifest: manifest) == tracking)
    }

    @Test(arguments: [
        ("/variant/index.m3u8?sessid=1", "https://ssai.example/live/master.m3u8", "https://ssai.example/variant/index.m3u8?sessid=1"),
        ("index_1.m3u8", "https://ssai.example/live/master.m3u8?x=1", "https://ssai.example/live/index_1.m3u8"),
        ("../other/i.m3u8", "https://ssai.example/live/sub/master.m3u8", "https://ssai.example/live/other/i.m3u8"),
        ("//cdn.example/a.m3u8", "https://ssai.example/live/master.m3u8", "https://cdn.example/a.m3u8"),
        ("http://other.example/x", "https://ssai.example/", "http://other.example/x"),
    ] as [(String, String, String)])
    func resolvesReferences(reference: String, base: String, resolved: String) {
        #expect(SessionEndpoints.resolve(reference, against: base) == resolved)
    }

    @Test(arguments: [
        ("ftp://ssai.example/x.m3u8", "https://ssai.example/"),
        ("file:///etc/passwd", "https://ssai.example/"),
        ("javascript:alert(1)", "https://ssai.example/"),
        ("relative.m3u8", "ftp://ssai.example/dir/"),
    ] as [(String, String)])
    func refusesNonHTTPResults(reference: String, base: String) {
        #expect(SessionEndpoints.resolve(reference, against: base) == nil)
    }

    @Test func addsAQueryItem() {
        #expect(SessionEndpoints.adding(query: "initSession", value: "true", to: "https://s.example/m.m3u8") == "https://s.example/m.m3u8?initSession=true")
        #expect(SessionEndpoints.adding(query: "initSession", value: "true", to: "https://s.example/m.m3u8?a=1") == "https://s.example/m.m3u8?a=1&initSession=true")
    }

    @Test func findsTheFirstVariantOfAMasterPlaylist() {
        let playlist = """
            #EXTM3U
            #EXT-X-VERSION:3
            # a comment
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360
            low/index.m3u8?sessid=abc
            #EXT-X-STREAM-INF:BANDWIDTH=2000000
            high/index.m3u8?sessid=abc
            """
        #expect(SessionInitializer.firstVariant(ofPlaylist: Array(playlist.utf8)) == "low/index.m3u8?sessid=abc")
        let crlf = "#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=1\r\n\r\n  v.m3u8  \r\n"
        #expect(SessionInitializer.firstVariant(ofPlaylist: Array(crlf.utf8)) == "v.m3u8")
    }

    @Test(arguments: [
        "",
        "low/index.m3u8\n",
        "#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n",
        "#EXTM3U\n#EXTINF:6.0,\nsegment0.ts\n",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n",
        "<html>not a playlist</html>",
    ])
    func findsNoVariantWhereThereIsNone(playlist: String) {
        #expect(SessionInitializer.firstVariant(ofPlaylist: Array(playlist.utf8)) == nil)
    }

    // MARK: SGAI

    static let sgai = SessionEndpoints(
        mediaURL: "https://mt.example/v1/session/a/c/index.m3u8", manifestURL: "https://mt.example/v1/master/a/c/index.m3u8?aws.sessionId=s9",
        trackingURL: "", sessionID: "s9", dialect: .mediatailor, isSGAI: true)

    @Test func findsMediaTailorsSessionID() {
        #expect(SessionEndpoints.sessionID(in: Self.sgai.manifestURL, parameter: SessionEndpoints.mediaTailorSessionParameter) == "s9")
        #expect(SessionEndpoints.sessionID(in: Self.sgai.manifestURL) == nil, "sessid is Harmonic's")
        #expect(SessionEndpoints.sessionID(in: "https://mt.example/m.m3u8?aws.sessionId=", parameter: "aws.sessionId") == nil)
    }

    /// A plain stream and an SGAI session poll nothing; any other session polls its tracking URL.
    @Test func onlyASessionWithATrackingURLPollsMetadata() {
        #expect(!Self.sgai.pollsMetadata)
        #expect(!SessionEndpoints.plain(mediaURL: "https://o.example/m.m3u8", reason: "r").pollsMetadata)
        var stitched = Self.sgai
        stitched.isSGAI = false
        stitched.trackingURL = "https://mt.example/v1/tracking/a/c/s9"
        #expect(stitched.pollsMetadata)
    }

    /// `sgai` is written only for an SGAI session; a document without it (any older one) reads as none.
    @Test func sgaiIsKeptInTheJSONAndOldDocumentsReadWithout() throws {
        let encoded = String(decoding: try JSONEncoder().encode(Self.sgai), as: UTF8.self)
        #expect(encoded.contains(#""sgai":true"#))
        #expect(try JSONDecoder().decode(SessionEndpoints.self, from: Data(encoded.utf8)) == Self.sgai)
        var stitched = Self.sgai
        stitched.isSGAI = false
        #expect(!String(decoding: try JSONEncoder().encode(stitched), as: UTF8.self).contains("sgai"))
        let old = #"{"mediaUrl": "m", "manifestUrl": "m2", "trackingUrl": "t", "sessionId": "s", "dialect": "mediatailor"}"#
        #expect(try JSONDecoder().decode(SessionEndpoints.self, from: Data(old.utf8)).isSGAI == false)
    }

    /// The journal's snapshot keeps it, so a resumed SGAI session still polls nothing.
    @Test func theSnapshotKeepsSGAI() throws {
        for endpoints in [Self.sgai, SessionEndpoints(mediaURL: "m", manifestURL: "m2", trackingURL: "t", sessionID: nil)] {
            let snapshot = SessionSnapshot(endpoints: endpoints, adBreaks: [], dataRange: nil, played: [], playhead: nil, savedAt: 1)
            let bytes = snapshot.jsonBytes()
            #expect(String(decoding: bytes, as: UTF8.self).contains(#""sgai":true"#) == endpoints.isSGAI)
            #expect(try JSONDecoder().decode(SessionSnapshot.self, from: Data(bytes)).endpoints == endpoints)
        }
    }

    /// The player hears it is an SGAI session, without a tracking URL.
    @Test func theAnnouncementSaysSGAIWithoutATrackingURL() {
        #expect(Self.sgai.announcement == #"{"manifestUrl":"https://mt.example/v1/master/a/c/index.m3u8?aws.sessionId=s9","sessionId":"s9","sgai":true,"trackingUrl":null}"#)
    }
}
