import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The `load` JSON: `adsParams`, `content` and `heartbeat`, read liberally, refused naming the key.
@Suite(.timeLimit(.minutes(2))) struct LoadOptionsTests {
    static let url = "https://h.example/v1/session/a/b/index.m3u8"

    func options(_ json: String) -> Result<LoadOptions, LineError> {
        LineParser.parse("load \(Self.url) \(json)").map { command in
            guard case .load(_, let options) = command else { return LoadOptions() }
            return options
        }
    }

    @Test func contentIsReadAsTheContentLineReadsIt() throws {
        let json = #"{"id": "ep-1", "name": "Pilot", "length": "1800", "streamType": "vod", "episode": 1, "firstAirDate": "2017-12-01", "tier": "gold"}"#
        let content = ContentInformation(
            id: "ep-1", name: "Pilot", length: 1800, streamType: .vod, standardMetadata: ["episode": "1", "firstAirDate": "2017-12-01"],
            customMetadata: ["tier": "gold"])
        #expect(options(#"{"content": \#(json)}"#) == .success(LoadOptions(content: content)))
        #expect(LineParser.parse("content \(json)") == .success(.information(.content(content))))
    }

    @Test(arguments: [#"{"length": -1}"#, "{}", #"{"length": null}"#])
    func noLengthOrMinusOneIsLive(json: String) {
        #expect(options(#"{"content": \#(json)}"#) == .success(LoadOptions(content: ContentInformation())))
    }

    @Test func everyStandardMetadataKeyIsStandard() throws {
        let pairs = ContentInformation.standardMetadataKeys.sorted().map { #""\#($0)": "v""# }.joined(separator: ", ")
        let content = try options("{\"content\": {\(pairs)}}").get().content
        #expect(content?.standardMetadata == Dictionary(uniqueKeysWithValues: ContentInformation.standardMetadataKeys.map { ($0, "v") }))
        #expect(content?.customMetadata == [:])
    }

    @Test func heartbeatReadsTheWireKeys() {
        let json = #"""
            {"heartbeat": {"flag": true, "token": "t0k", "freq": 60000, "contentId": "c1", "catalogType": "movie",
             "primaryContentId": "p1", "liveStartTime": 1700000000000, "liveEndTime": "1700003600000",
             "liveEventType": "overflow", "overflowMode": "before", "later": {"x": 1}}, "future": 1}
            """#.replacingOccurrences(of: "\n", with: " ")
        var heartbeat = HeartbeatOptions(
            flag: true, token: "t0k", freq: 60_000, contentID: "c1", catalogType: "movie", primaryContentID: "p1",
            liveStartTime: 1_700_000_000_000, liveEndTime: 1_700_003_600_000, liveEventType: .overflow, overflowMode: .before)
        heartbeat.unknownKeys = ["later"]
        #expect(options(json) == .success(LoadOptions(heartbeat: heartbeat)))
    }

    /// Quickplay's playback authorization names the three `heartbeatFlag`, `heartbeatToken` and
    /// `heartbeatFreq`: forwarded as they are, they mean what ours mean.
    @Test func heartbeatReadsQuickplaysOwnNames() {
        let json = #"{"heartbeat": {"heartbeatFlag": true, "heartbeatToken": "t0k", "heartbeatFreq": "30000", "contentId": "c1"}}"#
        #expect(options(json) == .success(LoadOptions(heartbeat: HeartbeatOptions(flag: true, token: "t0k", freq: 30_000, contentID: "c1"))))
        // Given both, ours is read; neither is unknown.
        #expect(options(#"{"heartbeat": {"flag": false, "heartbeatFlag": true}}"#) == .success(LoadOptions(heartbeat: HeartbeatOptions(flag: false))))
        // A value refused names the key as the player wrote it.
        guard case .failure(let error) = options(#"{"heartbeat": {"heartbeatFlag": "yes"}}"#) else {
            Issue.record("accepted")
            return
        }
        #expect(error.reason.hasPrefix("load: heartbeat.heartbeatFlag must be true or false"), "\(error.reason)")
    }

    /// The rest of Quickplay's names: the playback's headers, the live 360 times, the overflow mode.
    @Test func heartbeatReadsQuickplaysHeadersLive360TimesAndOverflowEventMode() throws {
        let json = #"{"heartbeat": {"heartbeatHeaders": {"X-Api-Key": "k", "X-Count": 3}, "live360StartTime": 1000, "live360EndTime": "2000", "overflowEventMode": "before"}}"#
        let heartbeat = try #require(try options(json).get().heartbeat)
        #expect(heartbeat.headers == ["X-Api-Key": "k", "X-Count": "3"])
        #expect(heartbeat.live360EndTime == 2_000 && heartbeat.overflowMode == .before && heartbeat.unknownKeys.isEmpty)
        #expect(try options(#"{"heartbeat": {"headers": {"X-A": "1"}}}"#).get().heartbeat?.headers == ["X-A": "1"], "ours too")
    }

    /// A playback's headers pass the configured headers' rules: it cannot forge the token or the
    /// body's type, nor smuggle a line break.
    @Test(arguments: [
        (#"{"heartbeatHeaders": "X-A: 1"}"#, "load: heartbeat.heartbeatHeaders must be an object of header names to values"),
        (#"{"heartbeatHeaders": {"X-Heartbeat-Token": "forged"}}"#, "load: heartbeat.heartbeatHeaders header X-Heartbeat-Token is set by the reporter"),
        (#"{"headers": {"Content-Type": "text/plain"}}"#, "load: heartbeat.headers header Content-Type is set by the reporter"),
        (#"{"heartbeatHeaders": {"X-A": "1\u0007X-B: 2"}}"#, "load: heartbeat.heartbeatHeaders header X-A's value must be at most 1024 bytes without control characters"),
        (#"{"heartbeatHeaders": {"bad name": "1"}}"#, "load: heartbeat.heartbeatHeaders header name 'bad name' is not an HTTP token"),
        (#"{"live360EndTime": -5}"#, "load: heartbeat.live360EndTime must be a whole number of epoch milliseconds"),
        (#"{"live360StartTime": "x"}"#, "load: heartbeat.live360StartTime must be a whole number"),
    ] as [(String, String)])
    func aPlaybacksHeadersAndTimesAreCheckedLikeTheConfiguredOnes(heartbeat: String, reason: String) {
        guard case .failure(let error) = options(#"{"heartbeat": \#(heartbeat)}"#) else {
            Issue.record("accepted: \(heartbeat)")
            return
        }
        #expect(error.reason.hasPrefix(reason), "\(error.reason)")
    }

    /// An unknown key is kept, sorted, with a warning naming it and the key it may have meant.
    @Test func unknownHeartbeatKeysAreKeptForAWarningWithTheNearestName() throws {
        let heartbeat = try #require(try options(#"{"heartbeat": {"heartbeatFlg": true, "tokn": "x", "banana": 1, "contentId": "c1"}}"#).get().heartbeat)
        #expect(heartbeat.flag == false && heartbeat.token == nil && heartbeat.contentID == "c1")
        #expect(heartbeat.unknownKeys == ["banana", "heartbeatFlg", "tokn"])
        #expect(heartbeat.unknownKeyWarnings == [
            "heartbeat: unknown key 'banana', ignored",
            "heartbeat: unknown key 'heartbeatFlg' (did you mean heartbeatFlag?), ignored",
            "heartbeat: unknown key 'tokn' (did you mean token?), ignored",
        ])
    }

    @Test(arguments: [
        ("heartbeatFlg", "heartbeatFlag"), ("HEARTBEATTOKEN", "heartbeatToken"), ("frq", "freq"), ("contentID", "contentId"),
        ("liveStartTme", "liveStartTime"), ("xyz", nil), ("heartbeat", nil),
    ] as [(String, String?)])
    func theNearestNameIsAFewEditsAwayOrNone(name: String, nearest: String?) {
        #expect(NameSuggestion.nearest(to: name, among: HeartbeatOptions.knownKeys) == nearest)
    }

    @Test(arguments: [
        (#"{"heartbeat": {}}"#, HeartbeatOptions()),
        (#"{"heartbeat": {"flag": "false", "token": 123}}"#, HeartbeatOptions(flag: false, token: "123")),
        (#"{"heartbeat": {"flag": "true", "freq": "30000"}}"#, HeartbeatOptions(flag: true, freq: 30_000)),
    ] as [(String, HeartbeatOptions)])
    func heartbeatIsReadLiberally(json: String, heartbeat: HeartbeatOptions) {
        #expect(options(json) == .success(LoadOptions(heartbeat: heartbeat)))
    }

    @Test func isInitRequestIsReadLiberally() {
        #expect(options(#"{"isInitRequest": false}"#) == .success(LoadOptions(isInitRequest: false)))
        #expect(options(#"{"isInitRequest": "true"}"#) == .success(LoadOptions(isInitRequest: true)))
        #expect(options("{}") == .success(LoadOptions()))
        guard case .failure(let error) = options(#"{"isInitRequest": "no"}"#) else {
            Issue.record("accepted")
            return
        }
        #expect(error.reason.hasPrefix("load: isInitRequest must be true or false"), "\(error.reason)")
    }

    @Test func allThreeTogether() {
        #expect(options(#"{"adsParams": {"deviceType": "tv"}, "content": {"id": "x"}, "heartbeat": {"flag": true}}"#) == .success(
            LoadOptions(adsParams: ["deviceType": "tv"], content: ContentInformation(id: "x"), heartbeat: HeartbeatOptions(flag: true))))
    }

    @Test(arguments: [
        (#"{"content": 5}"#, "load: content must be an object"),
        (#"{"content": {"length": -2}}"#, "load: content.length must be a number of seconds, or -1 for live"),
        (#"{"content": {"streamType": "radio"}}"#, "load: content.streamType must be one of vod, live, linear"),
        (#"{"content": {"cast": ["a"]}}"#, "load: content.cast must be text, a number or a boolean"),
        (#"{"heartbeat": []}"#, "load: heartbeat must be an object"),
        (#"{"heartbeat": {"flag": "yes"}}"#, "load: heartbeat.flag must be true or false"),
        (#"{"heartbeat": {"freq": 10}}"#, "load: heartbeat.freq must be a whole number of milliseconds from 100 to 86400000"),
        (#"{"heartbeat": {"freq": "soon"}}"#, "load: heartbeat.freq must be a whole number"),
        (#"{"heartbeat": {"freq": 1000.5}}"#, "load: heartbeat.freq must be a whole number"),
        (#"{"heartbeat": {"liveStartTime": -1}}"#, "load: heartbeat.liveStartTime must be a whole number of epoch milliseconds"),
        (#"{"heartbeat": {"liveEndTime": 253402300800000}}"#, "load: heartbeat.liveEndTime"),
        (#"{"heartbeat": {"liveEventType": "special"}}"#, "load: heartbeat.liveEventType must be one of regular, overflow"),
        (#"{"heartbeat": {"overflowMode": 1}}"#, "load: heartbeat.overflowMode must be one of before, during, after"),
        (#"{"heartbeat": {"contentId": {}}}"#, "load: heartbeat.contentId must be text"),
        (#"{"adsParams": {"n": 1}}"#, "load: adsParams must be an object of strings"),
        (#"{"adsParams": 1}"#, "load: adsParams must be an object of strings"),
        ("{", "load: not a JSON object"),
        ("[]", "load: not a JSON object"),
    ] as [(String, String)])
    func refusesNamingTheKey(json: String, reason: String) {
        guard case .failure(let error) = options(json) else {
            Issue.record("accepted \(json)")
            return
        }
        #expect(error.reason.hasPrefix(reason), "reason '\(error.reason)' for \(json)")
    }
}
