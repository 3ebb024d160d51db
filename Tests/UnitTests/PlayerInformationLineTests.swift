import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The player information and reporter lines: every form, and every refusal with its reason.
@Suite(.timeLimit(.minutes(2))) struct PlayerInformationLineTests {
    static func notice(_ code: Int, _ text: String) -> ApplicationNotice {
        guard case .success(let notice) = ApplicationNotice.make(code: code, text: text) else { preconditionFailure("\(code) is the application's") }
        return notice
    }

    @Test(arguments: [
        (#"content {"id": "ep-1", "name": "Pilot", "length": 1800, "streamType": "vod", "show": "Dark", "season": 1, "cast": "A, B"}"#,
            InputCommand.information(.content(ContentInformation(
                id: "ep-1", name: "Pilot", length: 1800, streamType: .vod, standardMetadata: ["show": "Dark", "season": "1"],
                customMetadata: ["cast": "A, B"])))),
        (#"content {"id": 42, "length": -1, "streamType": "LIVE", "live": true, "ratio": 1.5, "note": null}"#,
            .information(.content(ContentInformation(id: "42", streamType: .live, customMetadata: ["live": "true", "ratio": "1.5"])))),
        (#"content {"length": "95.5"}"#, .information(.content(ContentInformation(length: 95.5)))),
        (#"content {}"#, .information(.content(ContentInformation()))),
        (#"chapter-start {"index": 2, "offset": 600, "length": 300.5, "name": "Act 2"}"#,
            .information(.chapterStart(Chapter(index: 2, offset: 600, length: 300.5, name: "Act 2")))),
        (#"chapter-start {"index": "1", "offset": "0", "length": 60}"#, .information(.chapterStart(Chapter(index: 1, offset: 0, length: 60)))),
        ("chapter-end", .information(.chapterEnd)),
        ("chapter-skip", .information(.chapterSkip)),
        ("bitrate 2500000", .information(.quality(QualityOfService(bitrate: 2_500_000)))),
        ("bitrate 0", .information(.quality(QualityOfService(bitrate: 0)))),
        (#"qos {"bitrate": 4000000, "droppedFrames": 3, "fps": 29.97, "startupTime": 850}"#,
            .information(.quality(QualityOfService(bitrate: 4_000_000, droppedFrames: 3, fps: 29.97, startupTime: 850)))),
        (#"qos {"fps": "25"}"#, .information(.quality(QualityOfService(fps: 25)))),
        ("error player MEDIA_ERR_DECODE", .information(.error(PlaybackError(source: .player, id: "MEDIA_ERR_DECODE")))),
        ("error player 3016 the  decoder failed ", .information(.error(PlaybackError(source: .player, id: "3016", message: "the  decoder failed")))),
        ("error application DRM-LICENSE license expired", .information(.error(PlaybackError(source: .application, id: "DRM-LICENSE", message: "license expired")))),
        ("state-start closedCaptioning", .information(.stateStart("closedCaptioning"))),
        ("state-end fullScreen", .information(.stateEnd("fullScreen"))),
        ("privacy optin", .information(.privacy(.optIn))),
        ("privacy optout", .information(.privacy(.optOut))),
        ("privacy unknown", .information(.privacy(.unknown))),
        ("reporter enable media-analytics", .reporter(.enable(.mediaAnalytics))),
        ("reporter disable heartbeat", .reporter(.disable(.heartbeat))),
        ("reporter disable  beacons", .reporter(.disable(.beacons))),
        ("reporter list", .reporter(.list)),
        ("notify 399001 the viewer opened the guide ", .information(.notice(Self.notice(399_001, "the viewer opened the guide")))),
        ("notify 199999 x", .information(.notice(Self.notice(199_999, "x")))),
        ("notify  299000   low memory", .information(.notice(Self.notice(299_000, "low memory")))),
    ] as [(String, InputCommand)])
    func parses(line: String, command: InputCommand) {
        #expect(LineParser.parse(line) == .success(command))
    }

    @Test func aJSONTickKeepsItsQualityKeys() {
        let line = #"{"position": 12.5, "bitrate": 3000000, "droppedFrames": 1, "fps": 50, "startupTime": 420}"#
        let quality = QualityOfService(bitrate: 3_000_000, droppedFrames: 1, fps: 50, startupTime: 420)
        #expect(LineParser.parse(line) == .success(.playhead(PlayheadTick(playhead: 12_500, timeline: .mediaTime, quality: quality))))
        // Without them, none: the tick is what it was.
        #expect(LineParser.parse(#"{"playhead": 5, "rate": 1}"#) == .success(.playhead(PlayheadTick(playhead: 5, rate: 1))))
    }

    /// Each refusal, with a word its reason must hold: the key or value at fault.
    @Test(arguments: [
        ("content", "needs an argument"),
        ("content {", "not a JSON object"),
        ("content [1]", "not a JSON object"),
        (#"content {"length": -5}"#, "length must be a number of seconds, or -1 for live"),
        (#"content {"length": "long"}"#, "length must be a number"),
        (#"content {"streamType": "podcast"}"#, "streamType must be one of vod, live, linear"),
        (#"content {"show": {"a": 1}}"#, "show must be text"),
        (#"content {"tags": ["a"]}"#, "tags must be text"),
        ("chapter-start", "needs an argument"),
        (#"chapter-start {"offset": 0, "length": 60}"#, "missing 'index'"),
        (#"chapter-start {"index": 1, "length": 60}"#, "missing 'offset'"),
        (#"chapter-start {"index": 1, "offset": 0}"#, "missing 'length'"),
        (#"chapter-start {"index": 0, "offset": 0, "length": 60}"#, "index must be a whole number of 1 or more"),
        (#"chapter-start {"index": 1.5, "offset": 0, "length": 60}"#, "index must be a whole number"),
        (#"chapter-start {"index": 1, "offset": -1, "length": 60}"#, "offset must be"),
        (#"chapter-start {"index": 1, "offset": 0, "length": "nan"}"#, "length must be"),
        (#"chapter-start {"index": 1, "offset": 0, "length": 60, "name": [1]}"#, "name must be text"),
        ("chapter-end now", "takes no argument"),
        ("chapter-skip 2", "takes no argument"),
        ("bitrate", "needs an argument"),
        ("bitrate -1", "bitrate '-1' is not a whole number"),
        ("bitrate fast", "bitrate 'fast'"),
        ("bitrate 1.5", "whole number"),
        ("bitrate inf", "bitrate 'inf'"),
        ("bitrate 1e300", "whole number"),
        ("qos {}", "qos: gives none of"),
        (#"qos {"bitrate": -1}"#, "qos: bitrate must be a whole number of bits per second, 0 or more"),
        (#"qos {"droppedFrames": 2.5}"#, "droppedFrames must be a whole number"),
        (#"qos {"fps": true}"#, "fps must be a number"),
        (#"qos {"startupTime": -3}"#, "startupTime must be"),
        ("qos 5", "qos: not a JSON object"),
        (#"{"playhead": 5, "bitrate": "fast"}"#, "tick: bitrate must be"),
        ("error", "needs an argument"),
        ("error player", "needs an id"),
        ("error application", "needs an id"),
        ("error network E1", "error source 'network' is neither player or application"),
        ("error Player E1", "neither"),
        ("error player " + String(repeating: "x", count: 129), "longer than 128"),
        ("state-start", "needs an argument"),
        ("state-start full screen", "is not a state name"),
        ("state-end a/b", "is not a state name"),
        ("state-end " + String(repeating: "s", count: 65), "is not a state name"),
        ("privacy", "needs an argument"),
        ("privacy maybe", "privacy 'maybe' is none of optin, optout, unknown"),
        ("privacy OPTOUT", "is none of"),
        ("reporter", "needs an argument"),
        ("reporter enable", "takes one reporter name"),
        ("reporter disable a b", "takes one reporter name"),
        ("reporter enable analytics", "reporter 'analytics' is unknown: one of beacons, media-analytics, heartbeat"),
        ("reporter list all", "takes 'enable <name>', 'disable <name>' or 'list'"),
        ("reporter restart beacons", "takes 'enable <name>'"),
        ("notify", "needs an argument"),
        ("notify 399001", "notify takes a code and a text"),
        ("notify soon hello", "notify takes a code and a text"),
        ("notify 306007 played", "code 306007 is outside the application's area"),
        ("notify 499001 hi", "outside the application's area"),
        ("notify 99001 hi", "outside the application's area"),
        ("notify 3990010 hi", "outside the application's area"),
        ("notify 399001 " + String(repeating: "t", count: 301), "the text must be 1 to 300 characters"),
    ] as [(String, String)])
    func refusesWithAReason(line: String, reason: String) {
        guard case .failure(let error) = LineParser.parse(line) else {
            Issue.record("accepted '\(line)'")
            return
        }
        #expect(error.reason.contains(reason), "reason '\(error.reason)' for '\(line)' should hold '\(reason)'")
    }

    /// A refusal quotes what the line gave, cut: keys and values come from the player.
    @Test(arguments: ["content {\"", "bitrate ", "error x", "privacy ", "reporter enable ", "state-start "])
    func aRefusalQuotesABoundedPartOfTheLine(prefix: String) {
        let line = prefix + String(repeating: "[", count: 10_000) + (prefix.hasSuffix("\"") ? "\": []}" : "")
        guard case .failure(let error) = LineParser.parse(line) else {
            Issue.record("accepted '\(line.prefix(20))...'")
            return
        }
        #expect(error.reason.count <= 200, "\(error.reason.count) characters: \(error.reason.prefix(200))")
    }
}
