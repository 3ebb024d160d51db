import Logging
import Synchronization
import Testing

@testable import BeaconDomain
@testable import BeaconRuntime
@testable import BeaconTesting

/// What every reporter gets from its runner, on a core and an edge of the tests' own: effects one
/// at a time with each answer back first, a bounded queue that never loses a switch, the drain.
@Suite(.timeLimit(.minutes(1))) struct ReporterRunnerTests {
    /// Takes the number of each `lineRejected` notification and asks its edge to perform it; keeps
    /// what it saw, in order, for the status to show.
    struct Core: ReporterCore {
        var seen: [String] = []

        static func input(from notification: DaemonNotification) -> Int? {
            guard case .lineRejected(let reason) = notification else { return nil }
            return Int(reason)
        }

        mutating func take(_ input: Int, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Int>] {
            seen.append("take \(input)")
            return [.perform(input)]
        }

        mutating func wake(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Int>] { [] }

        mutating func record(
            _ answer: Int, of effect: Int, now: Milliseconds, wallNow: Milliseconds, using random: inout some RandomNumberGenerator
        ) -> [ReporterAction<Int>] {
            seen.append("answer \(answer)")
            return []
        }

        mutating func setEnabled(_ enabled: Bool, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Int>] {
            seen.append("enabled \(enabled)")
            return []
        }

        mutating func end(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Int>] {
            seen.append("end")
            return [.perform(-1)]
        }

        var nextWake: Milliseconds? { nil }
        var isSettled: Bool { true }
    }

    /// Performs an effect once opened, holding it until then; a cancelled one answers nothing.
    final class Edge: ReporterEdge {
        let started = Recorder<Int>()
        let cancelled = Recorder<Int>()
        private let gate = Wakeup()
        private let isOpen: Atomic<Bool>

        init(open: Bool) { isOpen = Atomic(open) }

        var name: ReporterName { .heartbeat }

        func open() {
            isOpen.store(true, ordering: .sequentiallyConsistent)
            gate.signal()
        }

        func perform(_ effect: Int, quiet: Bool) async -> Performed<Int> {
            started.append(effect)
            while !isOpen.load(ordering: .sequentiallyConsistent) && !Task.isCancelled { await gate.wait() }
            if Task.isCancelled {
                cancelled.append(effect)
                return Performed(answer: nil)
            }
            return Performed(answer: effect * 10, request: "effect \(effect)", counter: "sent")
        }

        func status(of core: Core, enabled: Bool, quiet: Bool, draining: Bool, wallOffset: Milliseconds) -> ReporterStatus {
            ReporterStatus(name: name, configured: true, enabled: enabled, state: draining ? "draining" : "running", details: ["seen": core.seen.joined(separator: ", ")])
        }
    }

    static func runner(_ edge: Edge, time: ManualTime = ManualTime()) -> ReporterRunner<Edge> {
        ReporterRunner(
            core: Core(), edge: edge, time: time.source, random: SeededGenerator(seed: 1), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            drainTimeout: .seconds(5), quiet: false, publish: { _ in })
    }

    @Test func effectsGoOneAtATimeAndEachAnswerComesBackBeforeTheNextInput() async {
        let edge = Edge(open: true)
        let runner = Self.runner(edge)
        for number in 1...3 { runner.receive(.lineRejected(reason: "\(number)")) }
        runner.receive(.metadataUnchanged(bytes: 1))
        runner.finish()
        await runner.run()
        let status = await runner.status()
        #expect(status.details["seen"] == "take 1, answer 10, take 2, answer 20, take 3, answer 30, end, answer -10")
        #expect(status.counters["sent"] == 4)
        #expect(status.lastRequest == "effect -1")
    }

    @Test func aFullQueueDropsAndCountsInputsButNeverASwitch() async throws {
        let edge = Edge(open: false)
        let runner = Self.runner(edge)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await runner.run() }
            runner.receive(.lineRejected(reason: "0"))
            try await edge.started.wait { $0.count == 1 }
            // The first is taken; the queue holds the next maxWaiting, and five find it full.
            for number in 1...(ReporterRunner<Edge>.maxWaiting + 5) { runner.receive(.lineRejected(reason: "\(number)")) }
            await runner.setEnabled(false)
            edge.open()
            runner.finish()
            try await group.waitForAll()
        }
        let status = await runner.status()
        #expect(status.counters["dropped"] == 5)
        let seen = status.details["seen"]?.components(separatedBy: ", ") ?? []
        #expect(seen.filter { $0.hasPrefix("take") }.count == ReporterRunner<Edge>.maxWaiting + 1)
        #expect(seen.contains("enabled false"), "the switch got through the full queue")
        #expect(!status.enabled)
    }

    /// Runs `runner` while `start` puts an effect under way and finishes the daemon, then moves
    /// time to the drain deadline, 5 s after the finish, and waits for the runner to end.
    static func runPastTheDrainDeadline(_ runner: ReporterRunner<Edge>, time: ManualTime, _ start: () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await runner.run() }
            try await start()
            try await time.waitForSleeper(until: time.now + 5_000)
            time.advance(by: 5_000)
            try await group.waitForAll()
        }
    }

    @Test func theDrainDeadlineCancelsWhatIsUnderWayAndEndsTheRunner() async throws {
        let edge = Edge(open: false)
        let time = ManualTime()
        let runner = Self.runner(edge, time: time)
        try await Self.runPastTheDrainDeadline(runner, time: time) {
            runner.finish()
            // The end's effect waits at the edge until the drain deadline.
            try await edge.started.wait { $0 == [-1] }
        }
        #expect(edge.cancelled.all == [-1])
        let status = await runner.status()
        #expect(status.state == "draining")
        #expect(status.details["seen"] == "end", "no answer came back from the cancelled effect")
    }

    @Test func anEffectUnderWayWhenTheDaemonFinishesIsBoundedByTheDrainDeadline() async throws {
        let edge = Edge(open: false)
        let time = ManualTime()
        let runner = Self.runner(edge, time: time)
        try await Self.runPastTheDrainDeadline(runner, time: time) {
            runner.receive(.lineRejected(reason: "1"))
            try await edge.started.wait { $0 == [1] }
            runner.finish()
        }
        #expect(edge.cancelled.all == [1])
        #expect(await runner.status().details["seen"] == "take 1", "the drain was over: nothing more was taken or ended")
    }

    /// The `beacons` reporter is a runner too: its switch is read by the daemon without waiting,
    /// and what the daemon told of its requests is shown with the time it came.
    @Test func theBeaconsSwitchIsReadWithoutWaitingAndTheirActivityShown() async {
        let time = ManualTime()
        let beacons = BeaconsReporter(quiet: false, time: time.source, random: SeededGenerator(seed: 1), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        #expect(beacons.isEnabled)
        await beacons.setEnabled(false)
        #expect(!beacons.isEnabled)
        beacons.receive(.beaconsDelivered(BeaconsActivityTests.firing, results: [BeaconsActivityTests.result(.notSent(.quiet))], state: .done))
        beacons.receive(.lineRejected(reason: "not a beacon"))
        beacons.finish()
        await beacons.run()
        let status = await beacons.status()
        #expect(status.state == "disabled")
        #expect(status.counters == ["notSent": 1])
        #expect(status.lastRequest == "start http://127.0.0.1/b")
        #expect(status.lastRequestAt == time.wallNow)
    }
}
