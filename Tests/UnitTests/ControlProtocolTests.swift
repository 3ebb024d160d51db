import Logging
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The line protocol parsed outside the daemon actor: refusals counted and logged as before, and
/// the replies as they were.
@Suite(.timeLimit(.minutes(1))) struct ControlProtocolTests {
    /// An idle daemon (never run: refusals, status and events need no loop), on a frozen clock,
    /// whose log lines, notifications and event history are kept.
    struct Idle {
        let lines: ControlProtocol
        let log = Recorder<String>()
        let observed = BeaconDaemonTests.Observed()

        init() {
            let log = log
            let events = EventHistoryRecorder(now: { Fixture.t0 })
            let daemon = BeaconDaemon(
                configuration: BeaconDaemonTests.configuration(session: false), client: ScriptedHTTPClient([:]),
                time: TimeSource(bootID: "test", instant: { 1_000 }, wall: { Fixture.t0 }), random: SeededGenerator(seed: 1),
                logger: Logger(label: "test") { LineLogHandler(component: $0, output: { log.append(String(decoding: $0, as: UTF8.self)) }) },
                notifications: DaemonNotificationHub([events, observed]))
            lines = ControlProtocol(daemon: daemon, events: events)
        }

        func logged(_ text: String, client: String) -> [String] {
            log.all.filter { $0.contains(text) && $0.contains("client=\(client)") }
        }

        var rejections: Int {
            observed.notifications.all.filter { if case .lineRejected = $0 { true } else { false } }.count
        }
    }

    @Test func aRefusedLineCountsOnceAndIsLoggedPerClientUpToTheLimitFromStdinAndTheSocket() async {
        let idle = Idle()
        let socket = InputClient.controlConnection(1)
        let extra = 3
        for _ in 0..<(RefusalLogLimit.perSecond + extra) {
            #expect(await idle.lines.handle(.text("bogus"), from: .standardInput) == #"{"error":"unknown command 'bogus'"}"#)
            guard case .line(let reply) = await idle.lines.reply(to: .text("bogus"), from: socket) else {
                Issue.record("a refused line is answered with one line")
                return
            }
            #expect(reply == #"{"error":"unknown command 'bogus'"}"#)
        }
        let refused = 2 * (RefusalLogLimit.perSecond + extra)
        #expect(await idle.lines.daemon.statusReport().counters.badLines == refused)
        #expect(idle.rejections == refused)
        for client in ["stdin", "socket#1"] {
            #expect(idle.logged("bad input line ignored", client: client).count == RefusalLogLimit.perSecond)
            #expect(idle.logged("line=\"bogus\"", client: client).count == RefusalLogLimit.perSecond)
            #expect(idle.logged("bad input lines not logged", client: client).isEmpty)
        }
        await idle.lines.inputEnded(from: .standardInput)
        await idle.lines.inputEnded(from: socket)
        for client in ["stdin", "socket#1"] {
            #expect(idle.logged("bad input lines not logged", client: client).map { $0.contains("count=\(extra)") } == [true])
        }
    }

    @Test func anUnreadableLineIsRefusedOnceWithoutAnExcerpt() async {
        let idle = Idle()
        #expect(await idle.lines.handle(.unreadable(.invalidUTF8)) == #"{"error":"line is not valid UTF-8"}"#)
        #expect(await idle.lines.daemon.statusReport().counters.badLines == 1)
        #expect(idle.rejections == 1)
        #expect(idle.logged("bad input line ignored reason=\"line is not valid UTF-8\" client=stdin", client: "stdin").count == 1)
    }

    @Test func statusAndEventsAreAnsweredFromTheSnapshotAndTheHistory() async throws {
        let idle = Idle()
        _ = await idle.lines.handle(.text("bogus"))
        let status = try #require(await idle.lines.handle(.text("status")))
        // The snapshot's document, and the audit's storage the daemon adds to it.
        let answered = try StatusReport.decode(jsonLine: status)
        var expected = StatusReport(await idle.lines.daemon.snapshot())
        expected.audit = answered.audit
        #expect(answered == expected && answered.audit != nil)
        #expect(answered.state == "idle")
        let events = try #require(await idle.lines.handle(.text("events")))
        #expect(events == idle.lines.events.reply().jsonLine())
        #expect(idle.lines.events.entries.map(\.name) == ["lineRejected"])
        #expect(await idle.lines.handle(.text("events follow")) == #"{"error":"'events follow' needs the control socket"}"#)
        guard case .stream = await idle.lines.reply(to: .text("events follow 0"), from: .controlConnection(2)) else {
            Issue.record("'events follow' on the socket is a stream")
            return
        }
        #expect(await idle.lines.daemon.statusReport().counters.badLines == 1, "status and events are not refusals")
    }

    @Test func aCommandReachesTheDaemonParsed() async {
        let idle = Idle()
        #expect(await idle.lines.handle(.text("playhead \(Fixture.t0)")) == nil)
        #expect(await idle.lines.handle(.text("unload")) == nil)
        let counters = await idle.lines.daemon.statusReport().counters
        #expect(counters.ticks == 1)
        #expect(counters.badLines == 0)
    }
}

extension BeaconDaemonTests {
    /// A tick outside the session's timeline is refused where the session is: once, with its line.
    @Test func aTickOutsideTheTimelineIsRefusedOnceByTheDaemon() async throws {
        let client = ScriptedHTTPClient([Self.trackingURL: [.body(Self.metadata)]])
        let observed = Observed()
        try await withDaemon(client: client, observed: observed) { daemon in
            await daemon.waitUntilSettled()
            #expect(
                await daemon.handle(.text("position 5"))
                    == #"{"error":"a position tick on a program-date-time session: send 'playhead <epoch ms>'"}"#)
            let status = await daemon.statusReport()
            #expect(status.counters.badLines == 1)
            #expect(status.counters.ticks == 0)
            #expect(observed.notifications.all.filter { if case .lineRejected = $0 { true } else { false } }.count == 1)
        }
    }
}
