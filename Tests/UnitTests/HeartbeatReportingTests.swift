import Testing
@testable import BeaconDomain

/// The heartbeat's core reads a `load`'s heartbeat object as the player wrote it: what it does not
/// know is warned of and counted, and a playback that asked for a heartbeat in part says why none runs.
@Suite(.timeLimit(.minutes(1))) struct HeartbeatReportingTests {
    static func core() -> HeartbeatReporting {
        var settings = HeartbeatSettings()
        settings.endpoint = "http://127.0.0.1:4647/heartbeat"
        return HeartbeatReporting(tracker: HeartbeatTracker(settings: settings, deviceID: "box-1"))
    }

    static func warnings(_ actions: [ReporterAction<HeartbeatReporting.Effect>]) -> [String] {
        actions.compactMap { if case .log(let line) = $0, line.level == .warning { line.message } else { nil } }
    }

    @Test func eachUnknownKeyIsWarnedOfOncePerLoadAndCounted() {
        var core = Self.core()
        var options = HeartbeatOptions(flag: true, token: "t", contentID: "c1")
        options.unknownKeys = ["heartbeatFrq", "zzz"]
        let warned = Self.warnings(core.take(.loaded(options, streamType: .live), now: 0, wallNow: 0))
        #expect(warned == [
            "heartbeat: unknown key 'heartbeatFrq' (did you mean heartbeatFreq?), ignored", "heartbeat: unknown key 'zzz', ignored",
        ])
        #expect(core.unknownKeys == 2)
        #expect(core.notRunning == nil)
        #expect(Self.warnings(core.take(.sessionReady(sessionID: "s1"), now: 0, wallNow: 0)).isEmpty, "once per playback")
        _ = core.take(.loaded(options, streamType: .live), now: 1, wallNow: 1)
        #expect(core.unknownKeys == 4, "each load counts its own")
    }

    /// A token without the flag is a heartbeat the player meant to have: the log and status say why none runs.
    @Test func aTokenWithoutTheFlagSaysWhyNoHeartbeatRuns() {
        var core = Self.core()
        var options = HeartbeatOptions(token: "t", contentID: "c1")
        options.unknownKeys = ["heartbeatFlg"]
        let actions = core.take(.loaded(options, streamType: .live), now: 0, wallNow: 0)
        #expect(!actions.contains { if case .perform = $0 { true } else { false } }, "no heartbeat")
        #expect(core.tracker.playback == nil)
        let reason = "the playback's heartbeat object has a token but no flag (flag or heartbeatFlag: true)"
        #expect(core.notRunning == reason)
        #expect(Self.warnings(actions).last == "heartbeat: none for this playback: \(reason)")
        _ = core.take(.loaded(HeartbeatOptions(flag: true, contentID: "c2"), streamType: .live), now: 1, wallNow: 1)
        #expect(core.notRunning == nil, "the next load has its own answer")
    }
}
