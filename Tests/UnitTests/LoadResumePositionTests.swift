import Logging
import Testing

@testable import BeaconDomain
@testable import BeaconRuntime
@testable import BeaconTesting

/// A `load` replies with its content's bookmark as `resumePosition`, from the lookup the daemon is given.
@Suite(.timeLimit(.minutes(2))) struct LoadResumePositionTests {
    static func reply(resumePosition: @escaping @Sendable (LoadOptions) -> Double?) async -> String? {
        let daemon = BeaconDaemon(
            configuration: BeaconDaemonTests.configuration(session: false), client: ScriptedHTTPClient([:]),
            random: SeededGenerator(seed: 1), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, resumePosition: resumePosition)
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await daemon.run() }
            defer { daemon.stop() }
            // A media URL that carries its session id needs no session init.
            return await daemon.handle(.text("load http://127.0.0.1:4647/live.m3u8?sessid=s2"))
        }
    }

    @Test func theReplyCarriesTheBookmarkFound() async {
        let reply = await Self.reply { _ in 70.5 }
        #expect(reply?.contains(#""resumePosition":70.5"#) == true, "\(reply ?? "nil")")
        #expect(reply?.contains(#""sessionId":"s2""#) == true)
    }

    @Test func noBookmarkNoKey() async {
        let reply = await Self.reply { _ in nil }
        #expect(reply?.contains("resumePosition") == false, "\(reply ?? "nil")")
        #expect(reply?.contains(#""sessionId":"s2""#) == true)
    }
}
