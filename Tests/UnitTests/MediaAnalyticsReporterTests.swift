import Foundation
import Logging
import Testing
@testable import BeaconDomain
@testable import BeaconRuntime
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct MediaAnalyticsReporterTests {
    private static let sessions = "http://collector.test/api/v1/sessions"
    private static let events = "http://collector.test/api/v1/sessions/sid-1/events"

    private struct Harness {
        let time = ManualTime()
        let client: ScriptedHTTPClient
        let reporter: MediaAnalyticsReporter

        init(
            _ script: [String: [ScriptedHTTPClient.Answer]] = [sessions: [.located(201, "/api/v1/sessions/sid-1")], events: [.status(204)]],
            quiet: Bool = false, settings: MediaAnalyticsSettings = MediaFixture.settings,
            state: any ReporterStateStore = InMemoryReporterState(installationID: "install-1")
        ) {
            client = ScriptedHTTPClient(script)
            reporter = MediaAnalyticsReporter(
                settings: settings, version: "9.9.9", state: state, http: client, time: time.source,
                random: SeededGenerator(seed: 1), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, drainTimeout: .seconds(5), quiet: quiet)
        }

        /// The event types sent, in order.
        var sentTypes: [String] {
            client.sent.all.compactMap { request in
                (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])?["eventType"] as? String
            }
        }

        func body(_ index: Int) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(client.sent.all[index].body)) as? [String: Any])
        }

        /// Runs the reporter while `body` runs, then finishes it and waits for its drain.
        func running(_ body: () async throws -> Void) async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await reporter.run() }
                try await body()
                reporter.finish()
                try await group.waitForAll()
            }
        }
    }

    @Test func aPlaybackIsReportedInOrderWithJSONBodiesAndTheSessionFromLocation() async throws {
        let harness = Harness()
        try await harness.running {
            harness.reporter.receive(MediaFixture.load())
            harness.reporter.receive(.playerEventObserved(.play))
            try await harness.client.sent.wait { $0.count == 2 }
            harness.time.advance(by: 10_000)
            try await harness.client.sent.wait { $0.count == 3 }
        }
        #expect(harness.sentTypes == ["sessionStart", "play", "ping", "sessionEnd"])
        #expect(harness.client.requests.all == [Self.sessions, Self.events, Self.events, Self.events])
        #expect(harness.client.sent.all.allSatisfy { request in
            request.method == .post && request.headers.contains { $0.name == "Content-Type" && $0.value == "application/json" }
        })
        let start = try harness.body(0)
        let playerTime = try #require(start["playerTime"] as? [String: Any])
        #expect((playerTime["ts"] as? NSNumber)?.int64Value == harness.time.wallNow - 10_000)
        #expect((start["params"] as? [String: Any])?["media.id"] as? String == "episode-7")
        let status = await harness.reporter.status()
        #expect(status.name == .mediaAnalytics)
        #expect(status.configured && status.enabled)
        #expect(status.counters["sent"] == 4)
        #expect(status.lastRequest == "sessionEnd \(Self.events)")
        #expect(status.lastAnswer == "HTTP 204")
    }

    @Test func aGoneSessionIsResumedInANewOne() async throws {
        let harness = Harness([
            Self.sessions: [.located(201, "/api/v1/sessions/sid-1"), .located(201, "/api/v1/sessions/sid-2")],
            Self.events: [.status(204), .status(410)],
            "http://collector.test/api/v1/sessions/sid-2/events": [.status(204)],
        ])
        try await harness.running {
            harness.reporter.receive(MediaFixture.load())
            harness.reporter.receive(.playerEventObserved(.play))
            harness.reporter.receive(.playerEventObserved(.pause))
            try await harness.client.sent.wait { $0.count == 5 }
        }
        #expect(harness.sentTypes == ["sessionStart", "play", "pauseStart", "sessionStart", "pauseStart", "sessionEnd"])
        let resumed = try harness.body(3)
        #expect((resumed["params"] as? [String: Any])?["media.resume"] as? Bool == true)
    }

    @Test func aServerErrorIsRetriedAfterABackoffWithTheOriginalTs() async throws {
        let harness = Harness([Self.sessions: [.located(201, "/api/v1/sessions/sid-1")], Self.events: [.status(503), .status(204)]])
        try await harness.running {
            harness.reporter.receive(MediaFixture.load())
            harness.reporter.receive(.playerEventObserved(.play))
            try await harness.client.sent.wait { $0.count == 2 }
            try await eventually("its failure recorded") { await harness.reporter.status().failuresInARow == 1 }
            // The first retry waits at most the backoff's base, 1 s.
            harness.time.advance(by: 1_000)
            try await harness.client.sent.wait { $0.count == 3 }
        }
        #expect(harness.sentTypes.prefix(3) == ["sessionStart", "play", "play"])
        #expect(harness.client.sent.all[1].body == harness.client.sent.all[2].body)
    }

    /// The daemon's quiet, or the reporter's own (Adobe's `quietMode`), which no reload of the
    /// daemon's can lift.
    @Test(arguments: [true, false])
    func quietModeComputesEverythingAndSendsNothing(daemonQuiet: Bool) async throws {
        var settings = MediaFixture.settings
        settings.quiet = !daemonQuiet
        let harness = Harness(quiet: daemonQuiet, settings: settings)
        try await harness.running {
            harness.reporter.receive(MediaFixture.load())
            harness.reporter.receive(.playerEventObserved(.play))
            harness.reporter.receive(.playerEventObserved(.pause))
        }
        #expect(harness.client.sent.count == 0)
        #expect(await harness.reporter.status().counters["sent"] == 4)
        #expect(await harness.reporter.status().lastAnswer == "not sent (quiet)")
        #expect(await harness.reporter.status().lastRequest?.hasPrefix("sessionEnd http://collector.test/api/v1/sessions/quiet-1/") == true)
        #expect(await harness.reporter.status().details["quiet"] == (daemonQuiet ? nil : "true"))
    }

    @Test func disablingEndsTheSessionAndSendsNothingMoreUntilEnabled() async throws {
        let harness = Harness()
        try await harness.running {
            harness.reporter.receive(MediaFixture.load())
            harness.reporter.receive(.playerEventObserved(.play))
            try await harness.client.sent.wait { $0.count == 2 }
            await harness.reporter.setEnabled(false)
            try await harness.client.sent.wait { $0.count == 3 }
            harness.reporter.receive(.playerEventObserved(.pause))
            harness.reporter.receive(.playerEventObserved(.play))
            harness.time.advance(by: 60_000)
            #expect(await harness.reporter.status().state == "disabled")
            await harness.reporter.setEnabled(true)
            harness.reporter.receive(MediaFixture.tick(position: 4))
            try await harness.client.sent.wait { $0.count == 5 }
        }
        #expect(harness.sentTypes == ["sessionStart", "play", "sessionEnd", "sessionStart", "play", "sessionEnd"])
    }

    /// The hub never waits for the reporter: what finds the queue full is dropped and counted,
    /// and every notification is either taken or counted.
    @Test func aFloodIsBoundedAndWhatIsDroppedCounted() async throws {
        let harness = Harness()
        let flood = 2 * MediaAnalyticsReporter.maxWaiting
        try await harness.running {
            harness.reporter.receive(MediaFixture.load())
            // In the error state every player event is taken and refused, one count each.
            harness.reporter.receive(.playerInformed(.error(PlaybackError(source: .player, id: "E1", message: "failed"))))
            for _ in 0..<flood { harness.reporter.receive(.playerEventObserved(.play)) }
        }
        // The reporter ended once it took everything that waited.
        let counters = await harness.reporter.status().counters
        #expect(counters["refused", default: 0] + counters["dropped", default: 0] == flood, "\(counters)")
        #expect(counters["refused", default: 0] >= MediaAnalyticsReporter.maxWaiting - 2, "what fitted was taken: \(counters)")
    }

    @Test func theDrainGivesUpAfterItsTimeout() async throws {
        let harness = Harness([Self.sessions: [.error(.connectionFailed("refused"))]])
        try await harness.running {
            harness.reporter.receive(MediaFixture.load())
            harness.reporter.receive(.playerEventObserved(.play))
            try await harness.client.sent.wait { $0.count == 1 }
            harness.reporter.finish()
            // Retries go on failing until the drain timeout passes: time jumps there.
            harness.time.advance(by: 5_000)
        }
        #expect(await harness.reporter.status().state == "draining")
        #expect(await harness.reporter.status().counters["queued"] == 3)
    }
}
