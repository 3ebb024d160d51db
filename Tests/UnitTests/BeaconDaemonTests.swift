import Logging
import ServiceLifecycleTestKit
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// Beacon delivery through the daemon's public surface, on a scripted HTTP client and an
/// in-memory journal. Real time, but short: retries back off 0-50 ms.
@Suite(.timeLimit(.minutes(1))) struct BeaconDaemonTests {
    static let t0 = Fixture.t0
    static let mediaURL = "http://127.0.0.1:4647/live.m3u8?sessid=s1"
    static let trackingURL = "http://127.0.0.1:4647/s1/metadata?sessid=s1"
    static let beacon = "http://127.0.0.1:4647/beacon?ad=a&cn=impression"

    /// One ad break with one ad whose only tracking event is an impression reported to `beacon`.
    static let metadata: [UInt8] = {
        let event = TrackingEvent(event: .impression, startTime: t0, duration: 30_000, signalingURLs: [beacon])
        let adBreak = AdBreak(id: "p", startTime: t0, duration: 30_000, ads: [Ad(id: "a", startTime: t0, duration: 30_000, trackingEvents: [event])])
        return Array(MetadataDocument(dataRange: DataRange(start: t0 - 600_000, end: t0 + 30_000), adBreaks: [adBreak]).encodedJSON().utf8)
    }()

    /// A daemon playing session s1 (no session init: the metadata URL is given), or idle.
    static func configuration(session: Bool = true) -> DaemonConfiguration {
        var configuration = DaemonConfiguration(version: "test")
        if session {
            configuration.mediaURL = mediaURL
            configuration.trackingURL = trackingURL
        }
        configuration.metadataInterval = .seconds(3600)
        configuration.drainTimeout = .seconds(2)
        configuration.retryBackoff = Backoff(base: 20, cap: 50)
        return configuration
    }

    /// What the daemon told, and (into `log`, when given) when a tracking event got its final state.
    struct Observed: DaemonNotificationSubscriber {
        let notifications = Recorder<DaemonNotification>()
        var log: Recorder<String>? = nil

        func receive(_ notification: DaemonNotification) {
            notifications.append(notification)
            if case .beaconsDelivered(let firing, _, let state) = notification {
                for url in firing.signalingURLs { log?.append("\(state.rawValue) \(url)") }
            }
        }

        /// The final results and state of every finished tracking event.
        var finished: [(results: [RequestResult], state: ReportingState)] {
            notifications.all.compactMap { notification in
                guard case .beaconsDelivered(_, let results, let state) = notification else { return nil }
                return (results, state)
            }
        }

        /// Returns once a tracking event got its final state.
        func waitForFinished() async throws {
            try await notifications.wait { $0.contains { if case .beaconsDelivered = $0 { true } else { false } } }
        }

        var retries: Int {
            notifications.all.filter { if case .beaconRetrying = $0 { true } else { false } }.count
        }
    }

    /// Runs a daemon on `client` (and `metadataClient`, `journal`) while `body` runs, then stops it
    /// and waits for `run()` to end.
    func withDaemon(
        _ configuration: DaemonConfiguration = configuration(), client: ScriptedHTTPClient, metadataClient: ScriptedHTTPClient? = nil,
        journal: InMemoryJournal? = nil, observed: Observed = Observed(), notifications: DaemonNotificationHub? = nil,
        time: TimeSource = .system, _ body: @Sendable (BeaconDaemon) async throws -> Void
    ) async throws {
        var opener: (@Sendable () throws(JournalError) -> any BeaconJournal)?
        if let journal { opener = { journal } }
        let daemon = BeaconDaemon(
            configuration: configuration, client: client, metadataClient: metadataClient, journal: opener, time: time,
            random: SeededGenerator(seed: 1),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            notifications: notifications ?? DaemonNotificationHub([observed]))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await daemon.run() }
            defer { daemon.stop() }
            try await body(daemon)
        }
    }

    /// Plays program time across the impression: two ticks 1 s apart, on the player's clock.
    func playTheImpression(_ daemon: BeaconDaemon) async {
        await daemon.waitUntilSettled()
        #expect(await daemon.handle(.text(#"{"playhead": \#(Self.t0 - 500), "at": 1700000000000}"#)) == nil)
        #expect(await daemon.handle(.text(#"{"playhead": \#(Self.t0 + 500), "at": 1700000001000}"#)) == nil)
    }

    func impressionState(_ daemon: BeaconDaemon) async -> ReportingState? {
        await daemon.statusReport().adBreaks.first?.ads.first?.trackingEvents.first?.reportingState
    }

    /// The metadata has connections of its own: it never goes through the beacons' client.
    @Test func metadataAndBeaconsGoThroughTheirOwnClients() async throws {
        let beacons = ScriptedHTTPClient([Self.beacon: [.status(204)]])
        let metadata = ScriptedHTTPClient([Self.trackingURL: [.body(Self.metadata)]])
        let observed = Observed()
        try await withDaemon(client: beacons, metadataClient: metadata, observed: observed) { daemon in
            await playTheImpression(daemon)
            try await observed.waitForFinished()
            #expect(await impressionState(daemon) == .done)
            #expect(beacons.requests.all == [Self.beacon])
            #expect(metadata.requests.all == [Self.trackingURL])
        }
    }

    /// In the service group a graceful shutdown (what SIGTERM becomes) ends the daemon: the drain
    /// starts with the beacon under way, lets it finish, then `run()` returns.
    @Test func aGracefulShutdownDrainsTheBeaconUnderWay() async throws {
        let client = ScriptedHTTPClient([Self.trackingURL: [.body(Self.metadata)], Self.beacon: [.held(204)]])
        let observed = Observed()
        try await testGracefulShutdown { trigger in
            try await withDaemon(client: client, observed: observed) { daemon in
                await playTheImpression(daemon)
                try await client.requests.wait { $0.filter { $0 == Self.beacon }.count == 1 }
                trigger.triggerGracefulShutdown()
                try await observed.notifications.wait { $0.contains { if case .drainStarted(inFlight: 1) = $0 { true } else { false } } }
                client.release()
                try await observed.waitForFinished()
            }
        }
        #expect(observed.finished.map(\.state) == [.done])
    }

    @Test func everyRequestIsJournaledBeforeItLeavesAndTheResultBeforeStatusSaysSo() async throws {
        let log = Recorder<String>()
        let client = ScriptedHTTPClient([Self.trackingURL: [.body(Self.metadata)], Self.beacon: [.status(503), .status(200)]], log: log)
        let journal = InMemoryJournal(log: log)
        let observed = Observed(log: log)
        try await withDaemon(client: client, journal: journal, observed: observed) { daemon in
            await playTheImpression(daemon)
            try await observed.waitForFinished()
            #expect(await daemon.statusReport().journal == StatusReport.Journal(state: .ok))
        }
        let entries = log.all
        let requests = entries.indices.filter { entries[$0] == "request \(Self.beacon)" }
        #expect(requests.count == 2)
        // Started as it fell due, the delivery is written once, already in flight, before its request.
        let firstSaved = try #require(entries.firstIndex { $0.hasPrefix("journal ") && $0.hasSuffix(" \(Self.beacon)") })
        #expect(entries[firstSaved] == "journal inFlight \(Self.beacon)", "\(entries)")
        #expect(firstSaved < requests[0])
        // Each request follows a save of the delivery in flight with that attempt.
        for (number, request) in requests.enumerated() {
            let savedInFlight = entries[..<request].filter { $0 == "journal inFlight \(Self.beacon)" }.count
            #expect(savedInFlight >= number + 1, "request \(number + 1) left before it was journaled in flight: \(entries)")
        }
        let delivered = try #require(entries.firstIndex(of: "journal delivered \(Self.beacon)"))
        let done = try #require(entries.firstIndex(of: "done \(Self.beacon)"))
        #expect(requests[1] < delivered)
        #expect(delivered < done, "\(entries)")
        #expect(journal.delivery(BeaconDelivery.Key(
            sessionKey: "s1", adBreakID: "p", adID: "a", event: .impression, eventStart: Self.t0, url: Self.beacon, occurrence: 0))?.attempts == 2)
        #expect(journal.sessions.map(\.endpoints.sessionID) == ["s1"])
    }

    @Test func aJournalThatCannotSaveLeavesDeliveryWorkingFromMemory() async throws {
        let client = ScriptedHTTPClient([Self.trackingURL: [.body(Self.metadata)], Self.beacon: [.status(200)]])
        let journal = InMemoryJournal()
        journal.fail([.save])
        let observed = Observed()
        try await withDaemon(client: client, journal: journal, observed: observed) { daemon in
            await playTheImpression(daemon)
            try await observed.waitForFinished()
            let status = await daemon.statusReport()
            #expect(status.deliveries.map(\.state) == [.delivered])
            #expect(status.counters.beaconsSent == 1)
            #expect(status.journal.state == .unavailable)
            #expect(status.journal.error?.contains("disk full") == true)
            #expect(status.counters.journalErrors > 0)
            #expect(await impressionState(daemon) == .done)
        }
        #expect(journal.calls.contains(.save))
        #expect(journal.allDeliveries.isEmpty)
    }

    @Test func unfinishedDeliveriesInTheJournalAreDeliveredOnceRunStarts() async throws {
        let now = BootClock.now()
        func restored(_ url: String, state: BeaconDelivery.State, attempts: Int) -> BeaconDelivery {
            let key = BeaconDelivery.Key(sessionKey: "old", adBreakID: "p0", adID: "a0", event: .start, eventStart: 5, url: url, occurrence: 0)
            return BeaconDelivery(
                key: key, reference: EventReference(adBreakID: "p0", adIndex: 0, eventIndex: 1), state: state, attempts: attempts,
                lastError: attempts > 0 ? "timed out" : nil, dueAt: now - 1000)
        }
        let due = restored("http://127.0.0.1:4647/old?n=1", state: .due, attempts: 0)
        let inFlight = restored("http://127.0.0.1:4647/old?n=2", state: .inFlight, attempts: 1)
        let finished = restored("http://127.0.0.1:4647/old?n=3", state: .delivered, attempts: 1)
        let journal = InMemoryJournal([due, inFlight, finished])
        let client = ScriptedHTTPClient([due.key.url: [.status(200)], inFlight.key.url: [.status(204)], finished.key.url: [.status(500)]])
        let observed = Observed()
        try await withDaemon(Self.configuration(session: false), client: client, journal: journal, observed: observed) { daemon in
            // On disk first, then reported: the tracking event's end follows the journal's write.
            try await observed.waitForFinished()
            #expect(journal.delivery(due.key)?.state == .delivered && journal.delivery(inFlight.key)?.state == .delivered)
            let status = await daemon.statusReport()
            #expect(status.counters.beaconsSent == 2)
            #expect(status.counters.beaconsResent == 1)
            #expect(status.counters.beaconsRetried == 1)
            #expect(status.journal.state == .ok)
            #expect(status.deliveries.isEmpty, "finished, and of no session being played")
            #expect(observed.finished.map(\.state) == [.done])
        }
        #expect(client.requestCount(due.key.url) == 1)
        #expect(client.requestCount(inFlight.key.url) == 1)
        #expect(client.requestCount(finished.key.url) == 0)
        #expect(journal.delivery(inFlight.key)?.attempts == 2)
        #expect(journal.delivery(due.key)?.attempts == 1)
    }
}

extension BeaconDaemon {
    /// One line as stdin gives it: parsed outside the actor, as ``ControlProtocol`` does.
    func handle(_ line: RawLine) async -> String? {
        await ControlProtocol(daemon: self, events: EventHistoryRecorder(now: { 0 })).handle(line)
    }
}
