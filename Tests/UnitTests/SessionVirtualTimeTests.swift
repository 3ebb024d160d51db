import Logging
import Testing
@testable import BeaconDomain
@testable import BeaconRuntime
import BeaconTesting

/// The daemon on a manual time source: session init fails, waits its backoff in virtual time and
/// is retried when the test moves the time, never sleeping in real time. A wait on the real clock
/// would never show among the manual time's sleepers, and these tests would time out.
@Suite(.timeLimit(.minutes(1))) struct SessionVirtualTimeTests {
    typealias Highest = RetryScheduleTests.Highest
    static let mediaURL = "http://127.0.0.1:4647/v1/session/abc/live/index.m3u8"
    static let trackingURL = "http://127.0.0.1:4647/v1/tracking/abc/live/s1"
    static let initAnswer = Array(#"{"manifestUrl": "/v1/master/abc/live/index.m3u8?aws.sessionId=s1", "trackingUrl": "/v1/tracking/abc/live/s1"}"#.utf8)

    @Test func initFailsTwiceAndIsRetriedAsTheManualTimeMovesOn() async throws {
        var configuration = DaemonConfiguration(version: "test")
        configuration.mediaURL = Self.mediaURL
        configuration.metadataInterval = .seconds(3600)
        configuration.drainTimeout = .seconds(2)
        let client = ScriptedHTTPClient([Self.mediaURL: [.status(503), .status(503), .body(Self.initAnswer)], Self.trackingURL: [.status(404)]])
        let time = ManualTime()
        let start = time.now
        let observed = BeaconDaemonTests.Observed()
        let daemon = BeaconDaemon(
            configuration: configuration, client: client, time: time.source, random: Highest(),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, notifications: DaemonNotificationHub([observed]))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await daemon.run() }
            defer { daemon.stop() }

            await daemon.waitUntilSettled()
            let first = await daemon.statusReport()
            #expect(first.state == "initializing" && first.initFailures == 1)
            #expect(first.nextInitAt == time.wallNow + 1_000, "the first retry waits the backoff's ceiling, 1 s")
            try await time.waitForSleepers { $0 == [start + 1_000] }
            #expect(client.requestCount(Self.mediaURL) == 1, "nothing is retried before the time comes")

            time.advance(by: 999)
            #expect(time.sleepers == [start + 1_000])
            time.advance(by: 1)
            try await time.waitForSleepers { $0 == [start + 3_000] }
            #expect(client.requestCount(Self.mediaURL) == 2)
            #expect(await daemon.statusReport().initFailures == 2)

            time.advance(to: start + 3_000)
            try await observed.notifications.wait { $0.contains { if case .sessionReady = $0 { true } else { false } } }
            #expect(client.requestCount(Self.mediaURL) == 3)
            let report = await daemon.statusReport()
            #expect(report.initFailures == 0 && report.nextInitAt == nil)
            #expect(report.session?.trackingURL == Self.trackingURL)
        }
    }

    /// The metadata poller on the daemon: failures in a row wait longer, a success goes back to
    /// the interval, and a Retry-After is waited for, each refresh when the manual time reaches it.
    @Test func metadataRefreshesBackOffAndComeBackToTheIntervalInVirtualTime() async throws {
        var configuration = BeaconDaemonTests.configuration()
        configuration.metadataInterval = .seconds(1)
        let trackingURL = BeaconDaemonTests.trackingURL
        let client = ScriptedHTTPClient([
            trackingURL: [.status(503), .status(503), .body(BeaconDaemonTests.metadata), .retryAfter(503, "30"), .body(BeaconDaemonTests.metadata)]
        ])
        let time = ManualTime()
        let daemon = BeaconDaemon(
            configuration: configuration, client: client, time: time.source, random: Highest(),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await daemon.run() }
            defer { daemon.stop() }
            await daemon.waitUntilSettled()
            var expected = time.now
            // After each refresh: the failures in a row and the wait before the next.
            for (failures, wait) in [(1, 1_000), (2, 2_000), (0, 1_000), (1, 30_000), (0, 1_000)] as [(Int, Milliseconds)] {
                expected += wait
                try await time.waitForSleepers { [expected] in $0 == [expected] }
                let report = await daemon.statusReport()
                #expect(report.metadataFailures == failures)
                #expect(report.nextMetadataAt == time.wallNow + expected - time.now)
                time.advance(to: expected - 1)
                #expect(time.sleepers == [expected], "no refresh before it is due")
                time.advance(to: expected)
            }
            #expect(client.requestCount(trackingURL) >= 5)
        }
    }

    /// A drain while init waits for its retry ends the supervisor at once: the wait on the manual
    /// time is cancelled, nothing is retried, and the state is idle.
    @Test func aDrainDuringAnInitRetryEndsTheSupervisorWithoutWaiting() async throws {
        var configuration = DaemonConfiguration(version: "test")
        configuration.mediaURL = Self.mediaURL
        configuration.drainTimeout = .seconds(2)
        let client = ScriptedHTTPClient([Self.mediaURL: [.status(503), .body(Self.initAnswer)]])
        let time = ManualTime()
        let daemon = BeaconDaemon(
            configuration: configuration, client: client, time: time.source, random: Highest(),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await daemon.run() }
            await daemon.waitUntilSettled()
            try? await time.waitForSleepers { $0.count == 1 }
            daemon.stop()
            await group.waitForAll()
        }
        #expect(time.sleepers.isEmpty, "the retry's wait was cancelled")
        #expect(client.requestCount(Self.mediaURL) == 1)
        #expect(await daemon.statusReport().state == "idle")
    }
}

