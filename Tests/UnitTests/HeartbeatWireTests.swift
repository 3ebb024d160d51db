import Testing
@testable import BeaconDomain

/// The heartbeat's wire: the player's JSON lines and history entries, the answer read liberally,
/// the request's headers.
@Suite(.timeLimit(.minutes(2))) struct HeartbeatWireTests {
    @Test func eachNotificationHasItsLine() {
        let lines: [(PlayerNotification, String)] = [
            (.stopPlayback(.heartbeatFailures), #"{"notification":"stopPlayback","reason":"heartbeatFailures","action":"stop"}"#),
            (.stopPlayback(.heartbeatRejected), #"{"notification":"stopPlayback","reason":"heartbeatRejected","action":"stop"}"#),
            (.stopPlayback(.concurrencyLimit), #"{"notification":"stopPlayback","reason":"concurrencyLimit","action":"stop"}"#),
            (.stopPlayback(.liveEventEnd), #"{"notification":"stopPlayback","reason":"liveEventEnd","action":"stop"}"#),
            (.blackout(.deny, blackoutURL: "https://s.example/\"b\""),
             #"{"notification":"blackout","action":"DENY","blackoutUrl":"https://s.example/\"b\"","suggestedAction":"playSlate"}"#),
            (.blackout(.allow, blackoutURL: nil), #"{"notification":"blackout","action":"ALLOW","suggestedAction":"continue"}"#),
            (.blackout(.allowWithUpgrade, blackoutURL: nil),
             #"{"notification":"blackout","action":"ALLOW_WITH_UPGRADE","suggestedAction":"offerUpgrade"}"#),
            (.liveProgramStart, #"{"notification":"liveProgramStart","suggestedAction":"switchToMain"}"#),
            (.liveEventEnd, #"{"notification":"liveEventEnd","suggestedAction":"playPostSlate"}"#),
            (.overflowEventEnd, #"{"notification":"overflowEventEnd","suggestedAction":"exit"}"#),
        ]
        for (notification, line) in lines { #expect(notification.line == line) }
    }

    @Test func eachNotificationIsAHistoryEntryWithItsCode() {
        let entries: [(DaemonNotification, Int, EventSeverity, [String: String])] = [
            (.playerNotified(.stopPlayback(.heartbeatFailures)), 106201, .error, ["reason": "heartbeatFailures", "action": "stop"]),
            (.playerNotified(.blackout(.deny, blackoutURL: "https://s.example/b")), 206201, .warning,
             ["action": "DENY", "blackoutUrl": "https://s.example/b", "suggestedAction": "playSlate"]),
            (.heartbeatFailing(failuresInARow: 2, reason: "HTTP 503"), 206202, .warning, ["failuresInARow": "2", "reason": "HTTP 503"]),
            (.playerNotified(.liveProgramStart), 306201, .info, ["suggestedAction": "switchToMain"]),
            (.playerNotified(.liveEventEnd), 306202, .info, ["suggestedAction": "playPostSlate"]),
            (.playerNotified(.overflowEventEnd), 306203, .info, ["suggestedAction": "exit"]),
        ]
        for (notification, code, severity, details) in entries {
            let event = notification.historyEvent
            #expect(event?.code == code)
            #expect(event?.severity == severity)
            #expect(event?.kind?.area == .playback)
            #expect(event?.details == details)
        }
    }

    @Test func theAnswerIsReadLiberally() {
        #expect(HeartbeatAnswer(body: []) == HeartbeatAnswer())
        #expect(HeartbeatAnswer(body: Array("not json".utf8)) == HeartbeatAnswer())
        #expect(HeartbeatAnswer(body: Array(#"{"syncInterval": "soon", "events": 3}"#.utf8)) == HeartbeatAnswer())
        #expect(HeartbeatAnswer(body: Array(#"{"syncInterval": 15000.7}"#.utf8)).syncInterval == 15_000)
        #expect(HeartbeatAnswer(body: Array(#"{"syncInterval": -5}"#.utf8)).syncInterval == nil)
        let mixed = #"""
            {"events": [{"event": "blackout", "action": "deny", "blackoutUrl": "javascript:alert(1)"}, {"event": "party"}, 7,
            {"event": "blackout"}, {"event": "liveProgramStart", "extra": true}, {"event": "overflowEventEnd"}], "other": {}}
            """#
        #expect(HeartbeatAnswer(body: Array(mixed.utf8)).events == [.blackout(.deny, blackoutURL: nil), .liveProgramStart, .overflowEventEnd])
    }

    @Test func theAnswerKeepsABoundedNumberOfEvents() {
        let many = "{\"events\": [" + Array(repeating: #"{"event": "liveEventEnd"}"#, count: 1_000).joined(separator: ",") + "]}"
        #expect(HeartbeatAnswer(body: Array(many.utf8)).events.count == HeartbeatAnswer.maxEvents)
    }

    @Test func theRequestCarriesJSONTheTokenAndTheExtraHeaders() {
        let request = HeartbeatRequest(kind: .heartbeat(.start), playback: 1, url: "http://hb.example/beat?key=k", body: [1], token: "t0k")
        let http = request.httpRequest(extraHeaders: ["X-Tenant": "a", "x-heartbeat-token": "forged", "Content-Type": "text/plain"])
        #expect(http.method == .post)
        #expect(http.body == [1])
        #expect(http.maxResponseBytes == HeartbeatRequest.maxResponseBytes)
        #expect(http.headers.map(\.name) == ["Content-Type", "X-Heartbeat-Token", "X-Tenant"])
        #expect(http.headers.map(\.value) == ["application/json", "t0k", "a"])
        #expect(request.summary == "start http://hb.example/beat")
        // A playback's own headers go on top of the configured ones; the playback wins a name given in both.
        let own = HeartbeatRequest(
            kind: .heartbeat(.progress), playback: 1, url: "http://hb.example/beat", body: [], token: "t0k",
            playbackHeaders: ["x-tenant": "b", "X-Model": "stb"])
        let merged = own.httpRequest(extraHeaders: ["X-Tenant": "a", "X-Region": "eu"]).headers
        #expect(merged.map(\.name) == ["Content-Type", "X-Heartbeat-Token", "X-Model", "X-Region", "x-tenant"])
        #expect(merged.map(\.value) == ["application/json", "t0k", "stb", "eu", "b"])
        let anonymous = HeartbeatRequest(kind: .concurrency(.stop), playback: 1, url: "http://hb.example/c", body: [], token: nil)
        #expect(anonymous.httpRequest(extraHeaders: [:]).headers.map(\.name) == ["Content-Type"])
        #expect(anonymous.summary == "concurrency stop http://hb.example/c")
    }

    @Test func theDaemonsNotificationsAreReadAsInputs() {
        var options = LoadOptions(content: ContentInformation(streamType: .vod), heartbeat: HeartbeatOptions(flag: true))
        #expect(DaemonNotification.playbackLoaded(mediaURL: "http://m", options: options).heartbeatInput
            == .loaded(HeartbeatOptions(flag: true), streamType: .vod))
        options = LoadOptions()
        #expect(DaemonNotification.playbackLoaded(mediaURL: "http://m", options: options).heartbeatInput == .loaded(nil, streamType: nil))
        #expect(DaemonNotification.playerInformed(.error(PlaybackError(source: .player, id: "e"))).heartbeatInput == .playerFailed)
        #expect(DaemonNotification.playerInformed(.error(PlaybackError(source: .application, id: "e"))).heartbeatInput == nil)
        #expect(DaemonNotification.sessionEnded(sessionID: "s").heartbeatInput == .sessionEnded(sessionID: "s"))
        #expect(DaemonNotification.playerNotified(.liveEventEnd).heartbeatInput == nil)
    }
}
