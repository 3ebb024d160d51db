import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// An interstitial's asset list read: its assets, and the SGAI tracking MediaTailor adds to it.
@Suite(.timeLimit(.minutes(1))) struct AssetListTests {
    static func read(_ text: String) -> Result<AssetList, AssetList.ReadError> { AssetList.read(Fixture.json(text)) }

    /// RFC 8216bis's `X-ASSET-LIST` answer as hls.js reads it: `ASSETS` of `URI` and `DURATION`;
    /// what an asset carries besides (SVTA's creative signaling) is left out.
    @Test func appleShape() throws {
        let list = try Self.read(#"""
            {"ASSETS": [
              {"URI": "http://127.0.0.1:9/ads/a1/index.m3u8", "DURATION": 30.0},
              {"URI": "http://127.0.0.1:9/ads/a2/index.m3u8", "DURATION": 15.015,
               "X-AD-CREATIVE-SIGNALING": {"version": 2, "type": "slot", "payload": [{"type": "linear", "tracking": [{"type": "impression", "urls": ["http://127.0.0.1:9/i"]}]}]}}
            ]}
            """#).get()
        #expect(list == AssetList(assets: [
            AssetList.Asset(uri: "http://127.0.0.1:9/ads/a1/index.m3u8", duration: 30_000),
            AssetList.Asset(uri: "http://127.0.0.1:9/ads/a2/index.m3u8", duration: 15_015),
        ]))
    }

    /// media3's reading: a `SKIP-CONTROL` object and string attributes beside `ASSETS`, all ignored here.
    @Test func exoPlayerShape() throws {
        let list = try Self.read(#"""
            {"X-COM-EXAMPLE-CAMPAIGN": "spring", "SKIP-CONTROL": {"OFFSET": 5, "DURATION": 10, "LABEL-ID": "skip-label"},
             "ASSETS": [{"URI": "http://127.0.0.1:9/ads/b1.m3u8", "DURATION": 6.5}]}
            """#).get()
        #expect(list == AssetList(assets: [AssetList.Asset(uri: "http://127.0.0.1:9/ads/b1.m3u8", duration: 6_500)]))
    }

    static let sgaiTracking = #"""
        {"avails": [{"availId": 9007199254740993, "startTime": "PT1M", "startTimeInSeconds": 60, "duration": "PT30S", "durationInSeconds": 30,
          "availProgramDateTime": null, "meta": null, "nonLinearAdsList": [],
          "adBreakTrackingEvents": [
            {"eventType": "breakStart", "beaconUrls": ["http://127.0.0.1:9/break?e=start"]},
            {"eventType": "breakEnd", "beaconUrls": ["http://127.0.0.1:9/break?e=end"]}],
          "ads": [
            {"adId": "ad-1", "adTitle": "first", "creativeId": "c-1", "adSystem": "test", "startTimeInSeconds": 60, "durationInSeconds": 15,
             "adVerifications": [{"vendor": "vendor.example", "verificationParameters": "p=1",
               "javaScriptResource": [{"apiFramework": "omid", "uri": "http://127.0.0.1:9/omid.js"}],
               "trackingEvents": [{"event": "verificationNotExecuted", "uri": "http://127.0.0.1:9/vne?r=[REASON]"}]}],
             "companionAds": [], "mediaFiles": {"mediaFilesList": [], "mezzanine": ""},
             "trackingEvents": [
               {"eventId": "1", "eventType": "impression", "startTimeInSeconds": 60, "beaconUrls": ["http://127.0.0.1:9/t?e=impression"]},
               {"eventId": "2", "eventType": "firstQuartile", "startTimeInSeconds": 63.75, "beaconUrls": ["http://127.0.0.1:9/t?e=q1"]},
               {"eventId": "3", "eventType": "complete", "startTime": "PT1M14.9S", "beaconUrls": ["http://127.0.0.1:9/t?e=complete"]}]},
            {"adId": 18446744073709551615, "startTimeInSeconds": 75, "durationInSeconds": 15, "trackingEvents": []}]}],
         "nonLinearAvails": []}
        """#

    /// MediaTailor SGAI in client-side reporting: `TRACKING` is its tracking API's document, read
    /// as that reader reads it (times as written, the avail's own tracking on an ad of its own,
    /// a verification a player does not run owed with the impression, integer ids exact).
    @Test func awsSGAIShapeWithTracking() throws {
        let list = try Self.read(#"""
            {"ASSETS": [{"URI": "http://127.0.0.1:9/v1/ad/ad-1.m3u8", "DURATION": 15},
                        {"URI": "http://127.0.0.1:9/v1/ad/ad-2.m3u8", "DURATION": 15}],
             "TRACKING": \#(Self.sgaiTracking)}
            """#).get()
        #expect(list.assets.map(\.duration) == [15_000, 15_000])
        #expect(list.trackingProblem == nil)
        let tracking = try #require(list.tracking)
        #expect(tracking == (try MediaTailorDocument.decode(Fixture.json(Self.sgaiTracking)).metadata))
        let adBreak = try #require(tracking.adBreaks.first)
        #expect((adBreak.id, adBreak.startTime, adBreak.duration) == ("9007199254740993", 60_000, 30_000))
        #expect(adBreak.ads.map(\.id) == [MediaTailorDocument.adBreakTrackingAdID, "ad-1", "18446744073709551615"])
        #expect(adBreak.ads[0].trackingEvents.map(\.event) == [.breakStart, .breakEnd])
        #expect(adBreak.ads[0].trackingEvents.map(\.startTime) == [60_000, 90_000])
        let ad = adBreak.ads[1]
        #expect(ad.trackingEvents.map(\.event) == [.impression, .firstQuartile, .complete, .verificationNotExecuted])
        #expect(ad.trackingEvents.map(\.startTime) == [60_000, 63_750, 74_900, 60_000])
        #expect(ad.trackingEvents.last?.signalingURLs == ["http://127.0.0.1:9/vne?r=[REASON]"])
        #expect((ad.title, ad.creativeID, ad.adSystem) == ("first", "c-1", "test"))
    }

    @Test(arguments: [
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": "30.0"}]}"#, 30_000),
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": " 12.5 "}]}"#, 12_500),
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": 10}]}"#, 10_000),
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": 0.0004}]}"#, nil),
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a"}]}"#, nil),
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": null}]}"#, nil),
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": 0}]}"#, nil),
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": -15}]}"#, nil),
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": "soon"}]}"#, nil),
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": "inf"}]}"#, nil),
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": 86401}]}"#, nil),
        (#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": [30]}]}"#, nil),
    ] as [(String, Milliseconds?)])
    func durationReadLiberallyOrLeftOut(_ body: String, _ duration: Milliseconds?) throws {
        #expect(try Self.read(body).get() == AssetList(assets: [AssetList.Asset(uri: "http://127.0.0.1:9/a", duration: duration)]))
    }

    /// No assets, or assets known only by their place; unknown keys anywhere are ignored.
    @Test(arguments: [
        (#"{}"#, AssetList(assets: [])),
        (#"{"ASSETS": []}"#, AssetList(assets: [])),
        (#"{"ASSETS": null, "TRACKING": null}"#, AssetList(assets: [])),
        (#"{"ASSETS": [{}, {"URI": 42, "X-OTHER": true}], "EXTRA": {"nested": [1, 2]}}"#, AssetList(assets: [AssetList.Asset(), AssetList.Asset()])),
        (#"{"assets": [{"URI": "x"}], "ASSETS": [{"uri": "x", "duration": 5}]}"#, AssetList(assets: [AssetList.Asset()])),
    ])
    func emptyListsAndUnknownKeys(_ body: String, _ expected: AssetList) throws {
        #expect(try Self.read(body).get() == expected)
    }

    /// A `TRACKING` that cannot be read leaves the assets, and says why.
    @Test(arguments: [
        (#"{"avails": [{"availId": "p", "startTimeInSeconds": "soon"}]}"#, "avails[0].startTimeInSeconds: 'soon' is no number of seconds or ISO 8601 duration"),
        (#"{"avails": [{"availId": "p", "startTimeInSeconds": 1692807940.914}]}"#, "ad break p: start 1692807940914 ms is a date, not a time from the start of the session"),
        (#"{"avails": [{"availId": "p", "ads": [{"adId": "a", "trackingEvents": [{"beaconUrls": []}]}]}]}"#, "missing 'eventType' in avails[0].ads[0].trackingEvents[0]"),
        (#"[{"avails": []}]"#, "not a JSON object"),
        (#""{\"avails\": []}""#, "not a JSON object"),
    ])
    func unreadableTrackingSaysWhy(_ tracking: String, _ problem: String) throws {
        let list = try Self.read(#"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": 5}], "TRACKING": \#(tracking)}"#).get()
        #expect(list == AssetList(assets: [AssetList.Asset(uri: "http://127.0.0.1:9/a", duration: 5_000)], trackingProblem: problem))
    }

    /// An empty `TRACKING` is a document with no ad break, not a problem.
    @Test func emptyTrackingIsNoAdBreak() throws {
        let list = try Self.read(#"{"ASSETS": [], "TRACKING": {}}"#).get()
        #expect(list.tracking?.adBreaks == [])
        #expect(list.trackingProblem == nil)
    }

    @Test(arguments: [
        ("", "not JSON"),
        (#"{"ASSETS": ["#, "not JSON"),
        ("[1]", "not a JSON object"),
        (#""ASSETS""#, "not a JSON object"),
        ("null", "not a JSON object"),
        (#"{"ASSETS": "http://127.0.0.1:9/a"}"#, "ASSETS must be an array of objects"),
        (#"{"ASSETS": [{"URI": "a"}, "b"]}"#, "ASSETS[1] must be an object"),
    ])
    func unreadableListsRefusedWithAReason(_ body: String, _ reason: String) {
        #expect(Self.read(body) == .failure(AssetList.ReadError(reason)))
    }

    /// Bounded as a body is: the bound itself is read, a byte more is not.
    @Test func sizeBounded() throws {
        let list = #"{"ASSETS": [{"URI": "http://127.0.0.1:9/a", "DURATION": 5}]}"#
        let padding = AssetList.maxBytes - list.utf8.count
        #expect(try Self.read(list + String(repeating: " ", count: padding)).get().assets.count == 1)
        #expect(Self.read(list + String(repeating: " ", count: padding + 1)) == .failure(AssetList.ReadError("larger than 1 MiB")))
    }

    /// A thousand assets at most: an index past that is no ad break's.
    @Test func assetCountBounded() throws {
        let asset = #"{"URI": "http://127.0.0.1:9/a", "DURATION": 1}"#
        #expect(try Self.read(#"{"ASSETS": [\#(Array(repeating: asset, count: 1_000).joined(separator: ","))]}"#).get().assets.count == 1_000)
        #expect(Self.read(#"{"ASSETS": [\#(Array(repeating: asset, count: 1_001).joined(separator: ","))]}"#)
            == .failure(AssetList.ReadError("ASSETS lists more than 1000 assets")))
    }
}
