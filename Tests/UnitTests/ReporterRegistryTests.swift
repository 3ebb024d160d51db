import Foundation
import Logging
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconRuntime
@testable import BeaconStorage
@testable import BeaconTesting

/// The reporters the runtime holds: `reporter list|enable|disable` answered outside the daemon,
/// every reporter in status, each built in the composition root beside the daemon.
@Suite(.timeLimit(.minutes(1))) struct ReporterRegistryTests {
    static func runtime(
        quiet: Bool = false, state: (any ReporterStateStore)? = nil, recording: Recorder<RecordingReporter>
    ) -> DaemonRuntime {
        var options = DaemonRuntimeTests.options(subscribers: [])
        options.configuration.quiet = quiet
        options.reporterState = state
        options.reporters = [{ context in
            let reporter = RecordingReporter(context: context, endpoint: nil)
            recording.append(reporter)
            return reporter
        }]
        return DaemonRuntime(options, logOutput: LogOutput(write: { _ in true }, droppedNotice: { _ in [] }))
    }

    func reply(_ runtime: DaemonRuntime, _ line: String) async -> String? {
        await runtime.lines.handle(.text(line))
    }

    @Test func listShowsEveryReporterInOrderTheConfiguredOnesEnabled() async throws {
        let runtime = Self.runtime(recording: Recorder())
        let line = try #require(await reply(runtime, "reporter list"))
        let list = try JSONDecoder().decode(ReporterList.self, from: Data(line.utf8))
        #expect(list.reporters.map(\.name) == [.beacons, .mediaAnalytics, .heartbeat, .telemetry])
        #expect(list.reporters.map(\.configured) == [true, true, false, false])
        #expect(list.reporters.map(\.enabled) == [true, true, false, false])
        #expect(list.reporters.map(\.state) == ["sending", "recording", "not configured", "not configured"])
        // Every field is written, null when absent, as in the status document.
        #expect(line.contains(#""lastAnswer":null"#))
    }

    @Test func switchingOneReporterKeepsTheOthersAndWhatItKnows() async throws {
        let recording = Recorder<RecordingReporter>()
        let runtime = Self.runtime(recording: recording)
        let reporter = try #require(recording.all.first)
        let disabled = try #require(await reply(runtime, "reporter disable media-analytics"))
        #expect(try JSONDecoder().decode(ReporterStatus.self, from: Data(disabled.utf8)).enabled == false)
        let off = try #require(await reply(runtime, "reporter disable beacons"))
        #expect(try JSONDecoder().decode(ReporterStatus.self, from: Data(off.utf8)).state == "disabled")
        #expect(await reporter.status().enabled == false)
        #expect(await reply(runtime, "reporter enable beacons") != nil)
        let statuses = await runtime.reporters.statuses()
        #expect(statuses.map(\.enabled) == [true, false, false, false], "enabling beacons leaves media-analytics disabled")
        #expect(
            await reply(runtime, "reporter enable heartbeat")
                == #"{"error":"reporter heartbeat is not configured: set endpoint in [heartbeat]"}"#)
    }

    @Test func statusShowsEveryReporter() async throws {
        let runtime = Self.runtime(recording: Recorder())
        let line = try #require(await reply(runtime, "status"))
        let report = try StatusReport.decode(jsonLine: line)
        #expect(report.reporters.map(\.name) == [.beacons, .mediaAnalytics, .heartbeat, .telemetry])
        // A daemon of an earlier release sends no reporters: read as none.
        let earlier = line.replacingOccurrences(of: #","reporters":["#, with: #","ignored":["#)
        #expect(try StatusReport.decode(jsonLine: earlier).reporters.isEmpty)
    }

    @Test func aReporterHearsTheHubOnItsOwnTaskAndEndsAfterTheDaemonQuietAsConfigured() async throws {
        let recording = Recorder<RecordingReporter>()
        let runtime = Self.runtime(quiet: true, recording: recording)
        let reporter = try #require(recording.all.first)
        await withDiscardingTaskGroup { group in
            group.addTask { await runtime.daemon.run() }
            group.addTask { await runtime.runReporters() }
            await runtime.daemon.waitUntilSettled()
            #expect(await reporter.status().state == "quiet")
            runtime.daemon.stop()
        }
        await runtime.shutdown()
        #expect(reporter.ended, "run() returns once the daemon finished")
        #expect(reporter.heard == ["sessionStarting", "sessionReady", "metadataFailed", "drainStarted", "sessionEnded"])
        #expect(await runtime.reporters.statuses().first?.state == "quiet", "--quiet is every reporter's, beacons' too")
    }

    @Test func quietIsAppliedToEveryReporterAtOnce() async throws {
        let recording = Recorder<RecordingReporter>()
        let runtime = Self.runtime(recording: recording)
        await runtime.reporters.setQuiet(true)
        #expect(await runtime.reporters.statuses().prefix(2).map(\.state) == ["quiet", "quiet"])
        await runtime.reporters.setQuiet(false)
        #expect(await runtime.reporters.statuses().prefix(2).map(\.state) == ["sending", "recording"])
    }

    @Test func thePrivacyStatusKeptIsToldToTheReportersAtStartAndEachChangeIsWritten() async throws {
        let state = InMemoryReporterState(installationID: "0123456789abcdef0123456789abcdef")
        try state.setPrivacyStatus(.optOut)
        let recording = Recorder<RecordingReporter>()
        let runtime = Self.runtime(state: state, recording: recording)
        let reporter = try #require(recording.all.first)
        await withDiscardingTaskGroup { group in
            group.addTask { await runtime.daemon.run() }
            group.addTask { await runtime.runReporters() }
            await runtime.daemon.waitUntilSettled()
            runtime.daemon.stop()
        }
        #expect(reporter.heard.first == "playerInformed", "told before the daemon's first notification")

        let keeper = PrivacyStatusKeeper(state: state, logger: Logger(label: "test"))
        keeper.receive(.playerInformed(.privacy(.unknown)))
        keeper.receive(.playerInformed(.privacy(.optIn)))
        keeper.finish()
        await keeper.run()
        #expect(state.privacyStatus() == .optIn, "the last change wins")
        // A kept opt-in is told too: a reporter's privacy-default may be `unknown`.
        let told = RecordingReporter()
        keeper.restore(to: [told])
        told.finish()
        await told.run()
        #expect(told.heard == ["playerInformed"])
        // Never said: nothing to tell, each reporter's default holds.
        let silent = RecordingReporter()
        PrivacyStatusKeeper(state: InMemoryReporterState(installationID: "0123456789abcdef0123456789abcdef"), logger: Logger(label: "test"))
            .restore(to: [silent])
        silent.finish()
        await silent.run()
        #expect(silent.heard.isEmpty)
    }
}
