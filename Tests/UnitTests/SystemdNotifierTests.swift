import Synchronization
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct SystemdNotifierTests {
    /// Keeps what the notifier sent.
    final class RecordingChannel: NotifyChannel {
        let messages = Recorder<String>()
        func send(_ message: String) { messages.append(message) }
        var assignments: [String] { messages.all.flatMap { $0.split(separator: "\n").map(String.init) } }
        var pets: Int { assignments.count { $0 == "WATCHDOG=1" } }
    }

    /// A probe that answers at once while open, and holds every caller while closed: a hung daemon.
    final class ProbeGate: Sendable {
        private struct State {
            var closed = false
            var held: CheckedContinuation<Void, Never>?
        }
        private let state = Mutex(State())

        func pass() async {
            await withCheckedContinuation { continuation in
                let holds = state.withLock { state in
                    if state.closed { state.held = continuation }
                    return state.closed
                }
                if !holds { continuation.resume() }
            }
        }

        var isHolding: Bool { state.withLock { $0.held != nil } }
        func close() { state.withLock { $0.closed = true } }
        func open() {
            let held = state.withLock { state in
                state.closed = false
                defer { state.held = nil }
                return state.held
            }
            held?.resume()
        }
    }

    static func report(_ state: String) -> StatusReport {
        StatusReport(version: "v", state: state, session: nil, playhead: nil, dataRange: nil, adBreaks: [], counters: StatusReport.Counters())
    }

    @Test func aHungDaemonStopsThePetting() async throws {
        let channel = RecordingChannel()
        let notifier = SystemdNotifier(channel: channel, petInterval: .milliseconds(20), clock: ContinuousClock())
        let gate = ProbeGate()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await notifier.probeUntilCancelled {
                    await gate.pass()
                    return Self.report("idle")
                }
            }
            try await eventually("three pets") { channel.pets >= 3 }
            gate.close()
            try await eventually("the probe to hang") { gate.isHolding }
            // The loop is stuck in the probe: everything it sent, it sent before.
            let petsBeforeTheHang = channel.pets
            try await Task.sleep(for: .milliseconds(300))
            #expect(channel.pets == petsBeforeTheHang)
            gate.open()
            try await eventually("the petting to resume") { channel.pets > petsBeforeTheHang }
            group.cancelAll()
        }
        #expect(channel.assignments.first == "READY=1")
        #expect(channel.assignments.count { $0 == "READY=1" } == 1)
        #expect(channel.assignments.count { $0.hasPrefix("STATUS=") } == 1)
    }

    @Test func reportsStatusChangesAndTheDrain() async throws {
        let channel = RecordingChannel()
        let notifier = SystemdNotifier(channel: channel, petInterval: nil, clock: ContinuousClock())
        let states = Recorder<String>()
        states.append("idle")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await notifier.probeUntilCancelled { Self.report(states.all.last!) } }
            try await eventually("ready") { channel.messages.all == ["READY=1\nSTATUS=idle"] }
            states.append("playing")
            try await eventually("the new status") { channel.messages.all.last == "STATUS=playing" }
            notifier.receive(.drainStarted(inFlight: 2))
            #expect(channel.messages.all.last == "STOPPING=1\nSTATUS=stopping, 2 tracking events in flight")
            notifier.receive(.metadataFailed(reason: "HTTP 500"))
            group.cancelAll()
        }
        #expect(channel.pets == 0)
        #expect(channel.messages.all.count == 3)
    }
}
