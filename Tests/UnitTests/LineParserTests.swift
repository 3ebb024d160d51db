import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct LineParserTests {
    @Test(arguments: [
        ("1675135534076", 1_675_135_534_076),
        ("1675135534076.4", 1_675_135_534_076),
        ("  1675135534076\t", 1_675_135_534_076),
        ("0", 0),
        ("playhead 1675135534076", 1_675_135_534_076),
        ("playhead 1675135534076.25", 1_675_135_534_076),
        ("playhead 2023-01-31T03:25:34.076Z", 1_675_135_534_076),
        ("playhead 2023-01-31T03:25:34Z", 1_675_135_534_000),
        ("253402300799999", 253_402_300_799_999),
    ] as [(String, Milliseconds)])
    func parsesPlayheads(line: String, playhead: Milliseconds) {
        #expect(LineParser.parse(line) == .success(.playhead(PlayheadTick(playhead: playhead))))
    }

    @Test func parsesJSONTicks() {
        let line = #"{"playhead": 1675135534076, "at": 1700000000123, "rate": 1.05}"#
        let expected = PlayheadTick(playhead: 1_675_135_534_076, observedAt: 1_700_000_000_123, rate: 1.05)
        #expect(LineParser.parse(line) == .success(.playhead(expected)))
        #expect(LineParser.parse(#"{"playhead": 1675135534076}"#) == .success(.playhead(PlayheadTick(playhead: 1_675_135_534_076))))
        #expect(LineParser.parse(#"{"playhead": 5, "extra": true}"#) == .success(.playhead(PlayheadTick(playhead: 5))))
    }

    @Test(arguments: [
        ("load https://origin.example/live/master.m3u8", InputCommand.load(mediaURL: "https://origin.example/live/master.m3u8")),
        ("load https://h.example/v1/session/a/b/index.m3u8 {\"adsParams\": {\"deviceType\": \"tv\"}, \"later\": 1}",
            .load(mediaURL: "https://h.example/v1/session/a/b/index.m3u8", options: LoadOptions(adsParams: ["deviceType": "tv"]))),
        ("load https://h.example/v1/session/a/b/index.m3u8   {}", .load(mediaURL: "https://h.example/v1/session/a/b/index.m3u8")),
        ("unload", .unload),
        ("play", .player(.play)),
        ("pause", .player(.pause)),
        ("complete", .player(.complete)),
        ("seek-start", .player(.seekStart)),
        ("seek-end", .player(.seekEnd)),
        ("buffer-start", .player(.bufferStart)),
        ("buffer-end", .player(.bufferEnd)),
        ("rate 2", .player(.rate(2))),
        ("rate 0.5", .player(.rate(0.5))),
        ("rate 0", .player(.rate(0))),
        ("mute", .user(.mute)),
        ("unmute", .user(.unmute)),
        ("skip", .user(.skip)),
        ("rewind", .user(.rewind)),
        ("expand", .user(.expand)),
        ("collapse", .user(.collapse)),
        ("click", .user(.click)),
        ("status", .status),
        ("events", .events(follow: false, after: nil)),
        ("events follow", .events(follow: true, after: nil)),
        ("events  follow   42", .events(follow: true, after: 42)),
        ("events follow 0", .events(follow: true, after: 0)),
        ("  pause  ", .player(.pause)),
    ] as [(String, InputCommand)])
    func parsesCommands(line: String, command: InputCommand) {
        #expect(LineParser.parse(line) == .success(command))
    }

    @Test(arguments: [
        "",
        "   ",
        "garbage",
        "hello world",
        "load https://h.example/x.m3u8 {",
        #"load https://h.example/x.m3u8 {"adsParams": {"n": 1}}"#,
        "load https://h.example/x.m3u8 extra",
        "{",
        #"{"playhead": 1675135534076"#,
        #"{"at": 1675135534076}"#,
        #"{"playhead": "soon"}"#,
        #"{"playhead": -1}"#,
        #"{"playhead": 1, "at": -5}"#,
        #"{"playhead": 1, "rate": -1}"#,
        #"{"playhead": 253402300800000}"#,
        "NaN",
        "nan",
        "inf",
        "-inf",
        "-1",
        "-0.5e3",
        "1675135534076abc",
        "253402300800000",
        "1e20",
        "playhead",
        "playhead soon",
        "playhead -5",
        "playhead 10000-01-01T00:00:00Z",
        "playhead 2023-13-45T99:00:00Z",
        "rate",
        "rate -1",
        "rate fast",
        "rate nan",
        "rate inf",
        "play now",
        "status please",
        "events all",
        "events follow -1",
        "events follow soon",
        "events follow 1 2",
        "events 5",
        "mute all",
        "load",
        "LOAD",
        "Pause",
    ])
    func rejectsWithAReason(line: String) {
        switch LineParser.parse(line) {
        case .success(let command): Issue.record("accepted '\(line)' as \(command)")
        case .failure(let error): #expect(!error.reason.isEmpty)
        }
    }

    @Test(arguments: [
        ("", "empty"),
        ("-1", "negative"),
        ("253402300800000", "9999"),
        (#"{"playhead": 1"#, "JSON"),
        ("rate -1", "rate"),
        ("play now", "no argument"),
        ("bogus", "unknown"),
        ("load", "argument"),
        ("rate", "argument"),
        ("playhead", "argument"),
    ] as [(String, String)])
    func reasonsNameTheProblem(line: String, word: String) {
        guard case .failure(let error) = LineParser.parse(line) else {
            Issue.record("accepted '\(line)'")
            return
        }
        #expect(error.reason.contains(word), "reason '\(error.reason)' for '\(line)' should mention '\(word)'")
    }

    /// Found by fuzzing: `rate <argument>` quoted its whole argument, up to 64 KiB, in the reason
    /// that is logged, counted in the event history and sent back on the control socket.
    @Test(arguments: ["rate ", "playhead ", "", "events follow ", "bogus "])
    func aRefusalQuotesABoundedPartOfTheLine(prefix: String) {
        let line = prefix + "1" + String(repeating: "[", count: 10_000)
        guard case .failure(let error) = LineParser.parse(line) else {
            Issue.record("accepted '\(line.prefix(20))...'")
            return
        }
        #expect(error.reason.count <= 120, "\(error.reason.count) characters: \(error.reason.prefix(200))")
    }
}
