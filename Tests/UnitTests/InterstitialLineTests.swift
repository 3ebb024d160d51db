import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The interstitial lines and ticks: every form, and every refusal with its reason.
@Suite(.timeLimit(.minutes(1))) struct InterstitialLineTests {
    /// 2026-01-01T00:00:10Z.
    static let breakDate: Milliseconds = 1_767_225_610_000

    @Test(arguments: [
        (#"interstitial-start {"id": "break-1", "start": 1767225610000}"#,
            InputCommand.interstitial(.start(InterstitialStart(id: "break-1", start: Self.breakDate)))),
        (#"interstitial-start {"id": "break-1", "start": "2026-01-01T00:00:10Z", "resumeOffset": 30}"#,
            .interstitial(.start(InterstitialStart(id: "break-1", start: Self.breakDate, resumeOffset: 30_000)))),
        (#"interstitial-start {"id": "break-1", "start": "2026-01-01T00:00:10.250Z", "position": 600.5}"#,
            .interstitial(.start(InterstitialStart(id: "break-1", start: Self.breakDate + 250, position: 600_500)))),
        (#"interstitial-start {"id": "break-1", "start": "1767225610000.4", "resumeOffset": "0"}"#,
            .interstitial(.start(InterstitialStart(id: "break-1", start: Self.breakDate, resumeOffset: 0)))),
        (#"interstitial-start {"id": 7, "position": "12.0004", "assetList": null, "cue": "ONCE"}"#,
            .interstitial(.start(InterstitialStart(id: "7", position: 12_000)))),
        (#"interstitial-start {"id": "pre roll ✓", "position": 0}"#, .interstitial(.start(InterstitialStart(id: "pre roll ✓", position: 0)))),
        (#"interstitial-asset {"id": "break-1", "index": 0, "uri": "http://127.0.0.1:9/ad1.m3u8", "duration": 15.5}"#,
            .interstitial(.asset(InterstitialAssetStart(id: "break-1", index: 0, uri: "http://127.0.0.1:9/ad1.m3u8", duration: 15_500)))),
        (#"interstitial-asset {"id": "break-1", "index": "999"}"#, .interstitial(.asset(InterstitialAssetStart(id: "break-1", index: 999)))),
        (#"interstitial-asset {"id": "break-1", "index": 2.0, "duration": "30", "extra": [1]}"#,
            .interstitial(.asset(InterstitialAssetStart(id: "break-1", index: 2, duration: 30_000)))),
        (#"{"interstitial": "break-1", "asset": 0, "position": 3.25}"#,
            .interstitial(.tick(InterstitialTick(id: "break-1", asset: 0, position: 3_250)))),
        (#"{"interstitial": "break-1", "asset": 1, "position": 0, "at": 1767225613250, "rate": 1}"#,
            .interstitial(.tick(InterstitialTick(id: "break-1", asset: 1, position: 0, observedAt: 1_767_225_613_250, rate: 1)))),
        (#"{"interstitial": "break-1", "asset": "1", "position": "7.5", "at": "1767225613250.6", "rate": "0", "bitrate": 5}"#,
            .interstitial(.tick(InterstitialTick(id: "break-1", asset: 1, position: 7_500, observedAt: 1_767_225_613_251, rate: 0)))),
        (#"interstitial-end {"id": "break-1", "reason": "completed"}"#, .interstitial(.end(InterstitialEnd(id: "break-1", reason: .completed)))),
        (#"interstitial-end {"id": "break-1", "reason": "Skipped"}"#, .interstitial(.end(InterstitialEnd(id: "break-1", reason: .skipped)))),
        (#"interstitial-end  {"id": "break-1", "reason": "ERROR", "message": "404"}"#, .interstitial(.end(InterstitialEnd(id: "break-1", reason: .error)))),
    ] as [(String, InputCommand)])
    func parses(line: String, command: InputCommand) {
        #expect(LineParser.parse(line) == .success(command))
    }

    /// The asset list as an object and as text holding the same object read the same.
    @Test func assetListAsObjectOrAsText() throws {
        let list = #"{"ASSETS": [{"URI": "http://127.0.0.1:9/ad1.m3u8", "DURATION": 15}, {"URI": "http://127.0.0.1:9/ad2.m3u8", "DURATION": "10.5"}], "X-OWN": 1}"#
        let expected = AssetList(assets: [
            AssetList.Asset(uri: "http://127.0.0.1:9/ad1.m3u8", duration: 15_000), AssetList.Asset(uri: "http://127.0.0.1:9/ad2.m3u8", duration: 10_500),
        ])
        let asObject = LineParser.parse(#"interstitial-start {"id": "b", "position": 60, "assetList": \#(list)}"#)
        #expect(asObject == .success(.interstitial(.start(InterstitialStart(id: "b", position: 60_000, assetList: expected)))))
        let escaped = list.replacingOccurrences(of: "\"", with: "\\\"")
        let asText = LineParser.parse(#"interstitial-start {"id": "b", "position": 60, "assetList": "\#(escaped)"}"#)
        #expect(asText == asObject)
    }

    /// SGAI: the list's tracking comes along with the start, on its own times.
    @Test func assetListTrackingComesWithTheStart() throws {
        let line = #"""
            interstitial-start {"id": "b", "start": "2026-01-01T00:00:10Z", "assetList": {"ASSETS": [{"URI": "http://127.0.0.1:9/a.m3u8", "DURATION": 15}], "TRACKING": {"avails": [{"availId": "1", "startTimeInSeconds": 10, "durationInSeconds": 15, "ads": [{"adId": "a1", "startTimeInSeconds": 10, "durationInSeconds": 15, "trackingEvents": [{"eventType": "impression", "startTimeInSeconds": 10, "beaconUrls": ["http://127.0.0.1:9/i"]}]}]}]}}}
            """#
        guard case .success(.interstitial(.start(let start))) = LineParser.parse(line) else {
            Issue.record("not an interstitial start")
            return
        }
        let tracking = try #require(start.assetList?.tracking)
        #expect(tracking.adBreaks.map(\.startTime) == [10_000])
        #expect(tracking.adBreaks.first?.ads.first?.trackingEvents.map(\.signalingURLs) == [["http://127.0.0.1:9/i"]])
        #expect(start.assetList?.trackingProblem == nil)
    }

    /// Each refusal, with the words its reason must hold: the key or value at fault.
    @Test(arguments: [
        ("interstitial-start", "'interstitial-start' needs an argument"),
        ("interstitial-start {", "interstitial-start: not a JSON object"),
        (#"interstitial-start {"id": "b"}"#, #"interstitial-start needs "start" (a date) or "position" (seconds)"#),
        (#"interstitial-start {"id": "b", "start": null, "position": null}"#, #"needs "start" (a date) or "position" (seconds)"#),
        (#"interstitial-start {"start": 1767225610000}"#, "interstitial-start: missing 'id'"),
        (#"interstitial-start {"id": "", "position": 1}"#, "interstitial-start: id must be printable text of 1 to 256 bytes"),
        (#"interstitial-start {"id": "a\u0007b", "position": 1}"#, "id must be printable text"),
        (#"interstitial-start {"id": "a\u200Eb", "position": 1}"#, "id must be printable text"),
        (#"interstitial-start {"id": {"x": 1}, "position": 1}"#, "interstitial-start: id must be text"),
        (#"interstitial-start {"id": "b", "start": "tomorrow"}"#, "interstitial-start: start must be epoch milliseconds or an ISO-8601 date"),
        (#"interstitial-start {"id": "b", "start": -5}"#, "interstitial-start: start is negative"),
        (#"interstitial-start {"id": "b", "start": 253402300800000}"#, "interstitial-start: start is after year 9999"),
        (#"interstitial-start {"id": "b", "position": -0.5}"#, "interstitial-start: position is negative"),
        (#"interstitial-start {"id": "b", "position": "soon"}"#, "interstitial-start: position must be a number of seconds"),
        (#"interstitial-start {"id": "b", "position": 40000000}"#, "interstitial-start: position is past 0..366 days of media time"),
        (#"interstitial-start {"id": "b", "position": 1, "resumeOffset": -1}"#, "interstitial-start: resumeOffset is negative"),
        (#"interstitial-start {"id": "b", "position": 1, "resumeOffset": "NaN"}"#, "interstitial-start: resumeOffset must be a number of seconds"),
        (#"interstitial-start {"id": "b", "position": 1, "assetList": 3}"#, "interstitial-start: assetList not a JSON object"),
        (#"interstitial-start {"id": "b", "position": 1, "assetList": "{\"ASSETS\": "}"#, "interstitial-start: assetList not JSON"),
        (#"interstitial-start {"id": "b", "position": 1, "assetList": {"ASSETS": {}}}"#, "interstitial-start: assetList ASSETS must be an array of objects"),
        ("interstitial-asset", "'interstitial-asset' needs an argument"),
        (#"interstitial-asset {"index": 0}"#, "interstitial-asset: missing 'id'"),
        (#"interstitial-asset {"id": "b"}"#, "interstitial-asset: missing 'index'"),
        (#"interstitial-asset {"id": "b", "index": -1}"#, "interstitial-asset: index must be a whole number from 0 to 999"),
        (#"interstitial-asset {"id": "b", "index": 1000}"#, "index must be a whole number from 0 to 999"),
        (#"interstitial-asset {"id": "b", "index": 0.5}"#, "index must be a whole number from 0 to 999"),
        (#"interstitial-asset {"id": "b", "index": 0, "uri": ""}"#, "interstitial-asset: uri must be text of 1 to 8192 bytes"),
        (#"interstitial-asset {"id": "b", "index": 0, "duration": 0}"#, "interstitial-asset: duration must be more than 0 seconds"),
        (#"interstitial-asset {"id": "b", "index": 0, "duration": -3}"#, "interstitial-asset: duration is negative"),
        (#"interstitial-asset {"id": "b", "index": 0, "duration": "long"}"#, "interstitial-asset: duration must be a number of seconds"),
        (#"{"interstitial": "b", "position": 1}"#, "interstitial tick: missing 'asset'"),
        (#"{"interstitial": "b", "asset": 0}"#, "interstitial tick: missing 'position'"),
        (#"{"interstitial": null, "asset": 0, "position": 1}"#, "interstitial tick: missing 'interstitial'"),
        (#"{"interstitial": "", "asset": 0, "position": 1}"#, "interstitial tick: interstitial must be printable text"),
        (#"{"interstitial": "b", "asset": 0, "position": 1, "playhead": 1767225610000}"#, #"interstitial tick: gives "position" in its asset, not "playhead""#),
        (#"{"interstitial": "b", "asset": 0, "position": -1}"#, "interstitial tick: position is negative"),
        (#"{"interstitial": "b", "asset": 0, "position": 1, "at": -5}"#, "interstitial tick: at is negative"),
        (#"{"interstitial": "b", "asset": 0, "position": 1, "at": 253402300800000}"#, "interstitial tick: at is after year 9999"),
        (#"{"interstitial": "b", "asset": 0, "position": 1, "rate": -1}"#, "interstitial tick: rate is not a finite non-negative number"),
        (#"{"interstitial": "b", "asset": 0, "position": 1, "rate": "fast"}"#, "interstitial tick: rate is not a finite non-negative number"),
        ("interstitial-end", "'interstitial-end' needs an argument"),
        (#"interstitial-end {"id": "b"}"#, "interstitial-end: missing 'reason'"),
        (#"interstitial-end {"id": "b", "reason": "done"}"#, "interstitial-end: reason must be one of completed, skipped, error"),
        (#"interstitial-end {"reason": "error"}"#, "interstitial-end: missing 'id'"),
    ])
    func refuses(line: String, reason: String) {
        guard case .failure(let error) = LineParser.parse(line) else {
            Issue.record("'\(line)' was accepted")
            return
        }
        #expect(error.reason.contains(reason), "'\(line)' refused with '\(error.reason)'")
    }

    /// An id of 256 bytes is taken; one more byte is refused. A URI of 8 KiB is taken, one more refused.
    @Test func idsAndURIsBounded() {
        let longest = String(repeating: "é", count: 128)
        #expect(LineParser.parse(#"interstitial-end {"id": "\#(longest)", "reason": "completed"}"#)
            == .success(.interstitial(.end(InterstitialEnd(id: longest, reason: .completed)))))
        #expect((try? LineParser.parse(#"interstitial-end {"id": "\#(longest)x", "reason": "completed"}"#).get()) == nil)
        let uri = "http://127.0.0.1:9/" + String(repeating: "a", count: 8 * 1024 - 19)
        #expect((try? LineParser.parse(#"interstitial-asset {"id": "b", "index": 0, "uri": "\#(uri)"}"#).get()) != nil)
        #expect((try? LineParser.parse(#"interstitial-asset {"id": "b", "index": 0, "uri": "\#(uri)a"}"#).get()) == nil)
    }

    /// A main tick is still a main tick: only an object with "interstitial" is read as one's.
    @Test func mainTicksUnchanged() {
        #expect(LineParser.parse(#"{"position": 3.25, "asset": 0}"#) == .success(.playhead(PlayheadTick(playhead: 3_250, timeline: .mediaTime))))
    }
}
