import Testing
@testable import BeaconDomain
@testable import BeaconTesting

/// The telemetry reporter's rules on its core, on a clock only the test moves: when it reads the
/// audit and the metrics, what it sends, and what OTLP/HTTP's delivery rules make of each answer.
@Suite(.timeLimit(.minutes(1))) struct TelemetryReportingTests {
    static let wall: Milliseconds = 1_700_000_000_000
    static let endpoint = "http://127.0.0.1:4318"

    static func settings(batchSize: Int = 3) -> TelemetrySettings {
        var settings = TelemetrySettings()
        settings.endpoint = endpoint
        settings.batchSize = batchSize
        return settings
    }

    static func core(_ settings: TelemetrySettings = settings()) -> TelemetryReporting {
        let resource = TelemetryResource.make(version: "1.2", instanceID: "id", instance: "", machine: "x86_64", operatorAttributes: [:])
        return TelemetryReporting(settings: settings, resource: resource, version: "1.2", now: 0, wallNow: wall)
    }

    static func entries(_ sequences: ClosedRange<Int64>) -> [AuditEntry] {
        sequences.map { sequence in
            var record = AuditRecord(
                id: "id\(sequence)", kind: .attempt, at: wall + sequence, subject: AuditSubject(sessionID: "s1", adID: "a", event: .impression))
            record.httpStatus = 204
            record.urlHost = "127.0.0.1"
            return AuditEntry(sequence: sequence, record: record)
        }
    }

    static func effects(_ actions: [ReporterAction<TelemetryReporting.Effect>]) -> [TelemetryReporting.Effect] {
        actions.compactMap { if case .perform(let effect) = $0 { effect } else { nil } }
    }

    static func answer(_ status: Int, body: String = "{}", retryAfter: String? = nil) -> TelemetryReporting.Answer {
        .sent(.success(HTTPClientResponse(status: status, finalURL: endpoint, body: Array(body.utf8), latencyMilliseconds: 1, retryAfter: retryAfter)))
    }

    /// Drives the core as its runner would: the effects it asks for, answered by the test.
    struct Drive {
        var core: TelemetryReporting
        var random = SeededGenerator(seed: 7)
        var now: Milliseconds = 0

        mutating func wake() -> [TelemetryReporting.Effect] {
            TelemetryReportingTests.effects(core.wake(now: now, wallNow: TelemetryReportingTests.wall + now))
        }

        mutating func answer(_ effect: TelemetryReporting.Effect, _ answer: TelemetryReporting.Answer) -> [TelemetryReporting.Effect] {
            TelemetryReportingTests.effects(core.record(answer, of: effect, now: now, wallNow: TelemetryReportingTests.wall + now, using: &random))
        }

        /// Reads `entries` and returns the batch the core sends.
        mutating func read(_ entries: [AuditEntry], after mark: Int64 = 0) throws -> TelemetryBatch {
            let read = wake()
            let asked = try #require(read.first)
            guard case .readAudit = asked else {
                Issue.record("expected a read of the audit, got \(read)")
                throw CancellationError()
            }
            let sent = answer(asked, .audit(entries, after: mark))
            guard case .send(let batch)? = sent.first else {
                Issue.record("expected a batch, got \(sent)")
                throw CancellationError()
            }
            return batch
        }
    }

    @Test func theFirstWakeReadsFromTheKeptMarkAndSendsOneBatch() throws {
        var drive = Drive(core: Self.core())
        #expect(drive.wake() == [.readAudit(after: nil, limit: 3)], "nil: from the mark the audit keeps")
        let batch = try #require(drive.answer(.readAudit(after: nil, limit: 3), .audit(Self.entries(5...6), after: 4)).first)
        guard case .send(let logs) = batch else { Issue.record("no batch: \(batch)"); return }
        #expect(logs.signal == .logs && logs.count == 2 && logs.lastSequence == 6)
        let text = String(decoding: logs.body, as: UTF8.self)
        #expect(text.contains("\"resourceLogs\"") && text.contains("\"beaconctl.record.id\"") && text.contains("\"id5\""))
        #expect(drive.answer(batch, Self.answer(200)) == [.markExported(through: 6)])
        #expect(drive.core.exportedThrough == 6 && drive.core.caughtUp)
        #expect(drive.core.nextWake == 10_000, "a batch that was not full waits for the log interval")
        #expect(drive.core.counters["records"] == 2)
        drive.now = 10_000
        #expect(drive.wake().first == .readAudit(after: 6, limit: 3))
    }

    @Test func aFullBatchIsFollowedAtOnceByTheNext() throws {
        var drive = Drive(core: Self.core())
        let batch = try drive.read(Self.entries(1...3))
        #expect(drive.answer(.send(batch), Self.answer(200)) == [.markExported(through: 3)])
        #expect(drive.core.nextWake == 0 && !drive.core.caughtUp)
        #expect(drive.wake() == [.readAudit(after: 3, limit: 3)])
    }

    @Test func aRetryAfterIsHonouredAndTheSameBatchGoesAgain() throws {
        var drive = Drive(core: Self.core())
        let batch = try drive.read(Self.entries(1...2))
        #expect(drive.answer(.send(batch), Self.answer(503, retryAfter: "30")).isEmpty)
        guard case .retrying(_, let wake) = drive.core.logs else { Issue.record("not retrying"); return }
        #expect(wake >= 30_000, "never sooner than Retry-After")
        drive.now = wake
        guard case .send(let again)? = drive.wake().first else { Issue.record("no retry"); return }
        #expect(again.body == batch.body && again.attempts == 1, "the same request, once tried")
        #expect(drive.core.exportedThrough == 0, "nothing marked while the collector has not taken it")
    }

    @Test(arguments: [429, 502, 503, 504]) func retryableStatusesAreRetried(status: Int) throws {
        var drive = Drive(core: Self.core())
        let batch = try drive.read(Self.entries(1...1))
        #expect(drive.answer(.send(batch), Self.answer(status)).isEmpty)
        guard case .retrying = drive.core.logs else { Issue.record("not retrying after \(status)"); return }
    }

    @Test func logsAreRetriedForAsLongAsTheOutageLasts() throws {
        var drive = Drive(core: Self.core())
        var batch = try drive.read(Self.entries(1...2))
        for attempt in 1...40 {
            #expect(drive.answer(.send(batch), .sent(.failure(.connectionFailed("refused")))).isEmpty)
            guard case .retrying(let pending, let at) = drive.core.logs else { Issue.record("gave up at attempt \(attempt)"); return }
            #expect(pending.attempts == attempt)
            drive.now = at
            guard case .send(let next)? = drive.wake().first else { Issue.record("no retry at attempt \(attempt)"); return }
            batch = next
        }
        #expect(drive.core.counters["dropped"] == nil)
        #expect(drive.answer(.send(batch), Self.answer(200)) == [.markExported(through: 2)], "back: every record once")
    }

    @Test(arguments: [400, 401, 404, 413, 500]) func otherStatusesDropTheBatchAndCountIt(status: Int) throws {
        var drive = Drive(core: Self.core())
        let batch = try drive.read(Self.entries(1...2))
        #expect(drive.answer(.send(batch), Self.answer(status)) == [.markExported(through: 2)], "past it: a bad batch never blocks the rest")
        #expect(drive.core.counters["dropped"] == 2 && drive.core.counters["records"] == nil)
    }

    @Test func aPartialSuccessCountsWhatWasRejected() throws {
        var drive = Drive(core: Self.core())
        let batch = try drive.read(Self.entries(1...3))
        let partial = #"{"partialSuccess":{"rejectedLogRecords":"2","errorMessage":"too old"}}"#
        let actions = drive.core.record(Self.answer(200, body: partial), of: .send(batch), now: 0, wallNow: Self.wall, using: &drive.random)
        #expect(Self.effects(actions) == [.markExported(through: 3)])
        #expect(actions.contains { if case .log(let line) = $0 { line.message.contains("too old") } else { false } })
        #expect(drive.core.counters["rejected"] == 2 && drive.core.counters["records"] == 1)
    }

    @Test func notSentKeepsTheRecordsForLater() throws {
        var drive = Drive(core: Self.core())
        let batch = try drive.read(Self.entries(1...2))
        #expect(drive.answer(.send(batch), .notSent).isEmpty)
        #expect(drive.core.exportedThrough == 0 && drive.core.nextWake == 10_000)
    }

    @Test func metricsGoEveryExportIntervalAndAFailedExportGivesWayToTheNext() throws {
        var drive = Drive(core: Self.core())
        let read = drive.wake()
        #expect(read == [.readAudit(after: nil, limit: 3)])
        #expect(drive.answer(read[0], .audit([], after: 0)).isEmpty, "nothing to send")
        drive.now = 10_000
        let effects = drive.wake()
        #expect(effects.contains(.readMetrics), "metrics first go one log interval after the start")
        let text = "# TYPE beaconctl_ticks_total counter\nbeaconctl_ticks_total 42\n"
        guard case .send(let metrics)? = drive.answer(.readMetrics, .metrics(text)).first else { Issue.record("no metrics batch"); return }
        #expect(metrics.signal == .metrics && String(decoding: metrics.body, as: UTF8.self).contains("beaconctl_ticks_total"))
        var batch = metrics
        for _ in 1...4 {
            _ = drive.answer(.send(batch), Self.answer(503))
            guard case .retrying(let pending, let at) = drive.core.metrics else { break }
            drive.now = at
            batch = pending
            _ = drive.wake()
        }
        #expect(drive.core.counters["metricsDropped"] == 1, "after a few tries a metrics export gives way")
        guard case .idle(let next) = drive.core.metrics else { Issue.record("metrics not idle"); return }
        #expect(next == drive.now + 60_000)
    }

    @Test func aBatchTooBigIsCutToFit() throws {
        var drive = Drive(core: Self.core(Self.settings(batchSize: 8192)))
        let big = Self.entries(1...4000).map { entry -> AuditEntry in
            var entry = entry
            entry.record.reason = String(repeating: "r", count: 400)
            return entry
        }
        let batch = try drive.read(big)
        #expect(batch.body.count <= TelemetrySettings.maxBatchBytes && batch.count < 4000 && batch.count > 0)
        #expect(batch.lastSequence == Int64(batch.count))
    }

    @Test func disabledItReadsNothingAndEnabledItReadsAtOnce() {
        var drive = Drive(core: Self.core())
        _ = drive.core.setEnabled(false, now: 0, wallNow: Self.wall)
        #expect(drive.wake().isEmpty && drive.core.nextWake == nil)
        drive.now = 50_000
        _ = drive.core.setEnabled(true, now: 50_000, wallNow: Self.wall + 50_000)
        #expect(drive.core.logs == .idle(next: 50_000), "what waits in the audit goes at once")
        #expect(drive.wake().contains(.readAudit(after: nil, limit: 3)))
    }

    @Test func theEndReadsTheAuditToItsEndThenSettles() throws {
        var drive = Drive(core: Self.core())
        let first = try drive.read(Self.entries(1...1))
        _ = drive.answer(.send(first), Self.answer(200))
        drive.now = 3_000
        let ending = Self.effects(drive.core.end(now: 3_000, wallNow: Self.wall + 3_000))
        #expect(ending == [.readAudit(after: 1, limit: 3)], "the session's end goes too")
        #expect(!drive.core.isSettled)
        guard case .send(let last)? = drive.answer(ending[0], .audit(Self.entries(2...2), after: 1)).first else { Issue.record("no batch"); return }
        _ = drive.answer(.send(last), Self.answer(200))
        #expect(drive.core.isSettled)
    }

    @Test func theResourceNamesTheBoxAndKeepsItsIdentity() {
        let resource = TelemetryResource.make(
            version: "1.2", instanceID: "abc", instance: "living-room", machine: "aarch64",
            operatorAttributes: ["deployment.environment": "prod", "service.name": "other"])
        let attributes = Dictionary(resource.attributes.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(attributes["service.name"] == .string("beaconctl"), "an operator's attribute never replaces the box's identity")
        #expect(attributes["service.instance.id"] == .string("abc") && attributes["beaconctl.instance"] == .string("living-room"))
        #expect(attributes["host.arch"] == .string("arm64") && attributes["os.type"] == .string("linux"))
        #expect(attributes["deployment.environment"] == .string("prod"))
        #expect(resource.attributes.filter { $0.key == "service.name" }.count == 1)
    }

    @Test func twoInstancesOnOneBoxAreTwoInstanceIDs() throws {
        let machineID = "0123456789abcdef0123456789abcdef\n"
        let kitchen = try #require(MachineAppSpecificID.derived(fromMachineID: machineID, application: TelemetryResource.application(instance: "kitchen")))
        let hall = try #require(MachineAppSpecificID.derived(fromMachineID: machineID, application: TelemetryResource.application(instance: "hall")))
        #expect(kitchen != hall && !kitchen.contains("0123456789abcdef"))
        #expect(kitchen == MachineAppSpecificID.derived(fromMachineID: machineID, application: TelemetryResource.application(instance: "kitchen")))
    }
}
