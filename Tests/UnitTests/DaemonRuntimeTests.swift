import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The composition root `run` and `demo` share: its outputs subscribe to one hub.
@Suite(.timeLimit(.minutes(1))) struct DaemonRuntimeTests {
    /// A session whose metadata host refuses connections: no network is needed to see it start.
    static func options(subscribers: [any DaemonNotificationSubscriber]) -> DaemonRuntime.Options {
        var configuration = DaemonConfiguration(version: "test")
        configuration.mediaURL = "http://127.0.0.1:1/live.m3u8?sessid=s1"
        configuration.trackingURL = "http://127.0.0.1:1/s1/metadata?sessid=s1"
        configuration.metadataInterval = .seconds(3600)
        var options = DaemonRuntime.Options(configuration: configuration, http: CurlHTTPClient.Configuration(totalTimeout: .seconds(2)))
        options.subscribers = subscribers
        return options
    }

    @Test func theEventHistoryAndAnAddedOutputHearTheSessionFromTheOneHub() async throws {
        let added = BeaconDaemonTests.Observed()
        let runtime = DaemonRuntime(Self.options(subscribers: [added]), logOutput: LogOutput(write: { _ in true }, droppedNotice: { _ in [] }))
        #expect(runtime.notifier == nil, "no systemd without NOTIFY_SOCKET")
        #expect(runtime.metrics == nil, "no metrics without an address")
        await withDiscardingTaskGroup { group in
            group.addTask { await runtime.daemon.run() }
            await runtime.daemon.waitUntilSettled()
            let status = await runtime.lines.handle(.text("status")).flatMap { try? StatusReport.decode(jsonLine: $0) }
            #expect(status?.session?.sessionID == "s1")
            #expect(status?.counters.metadataErrors == 1)
            runtime.daemon.stop()
        }
        await runtime.shutdown()
        let history = runtime.events.entries.map(\.name)
        #expect(history == ["sessionStarting", "sessionReady", "metadataFailed", "drainStarted", "sessionEnded"])
        let heard = added.notifications.all.map { "\($0)".prefix { $0 != "(" } }
        #expect(heard == ["sessionStarting", "sessionReady", "metadataFailed", "drainStarted", "sessionEnded"])
    }
}
