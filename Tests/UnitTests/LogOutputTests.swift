import Dispatch
import Glibc
import Synchronization
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct LogOutputTests {
    /// What the writer was given: each write's bytes, whole.
    final class Stderr: Sendable {
        let writes = Recorder<[UInt8]>()
        /// While closed, a write waits: a reader of stderr that stalls.
        let gate = Mutex(true)
        /// Writes begun, finished or not.
        let begun = Mutex(0)

        func write(_ bytes: [UInt8]) -> Bool {
            begun.withLock { $0 += 1 }
            while !gate.withLock({ $0 }) { usleep(1_000) }
            writes.append(bytes)
            return true
        }

        var text: String { writes.all.map { String(decoding: $0, as: UTF8.self) }.joined() }
        var lines: [String] { text.split(separator: "\n").map(String.init) }
    }

    static func output(_ stderr: Stderr, capacity: Int = 1 << 20) -> LogOutput {
        LogOutput(capacity: capacity, write: stderr.write) { Array("dropped \($0)\n".utf8) }
    }

    @Test func linesOfConcurrentWritersNeverInterleaveAndEachKeepsItsOrder() async throws {
        let stderr = Stderr()
        let output = Self.output(stderr)
        await withDiscardingTaskGroup { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<500 { output.append(Array("w\(writer) \(index) \(String(repeating: "x", count: index % 50))\n".utf8)) }
                }
            }
        }
        #expect(await output.flush(timeout: .seconds(30)))
        let lines = stderr.lines
        #expect(lines.count == 8 * 500)
        for writer in 0..<8 {
            let mine = lines.filter { $0.hasPrefix("w\(writer) ") }
            #expect(mine == (0..<500).map { "w\(writer) \($0) \(String(repeating: "x", count: $0 % 50))" })
        }
        #expect(output.droppedLines == 0)
    }

    @Test func aStalledStderrNeverBlocksTheCallerAndCostsOnlyTheLinesThatDoNotFit() async throws {
        let stderr = Stderr()
        stderr.gate.withLock { $0 = false }
        let output = Self.output(stderr, capacity: 100)
        output.append(Array("first\n".utf8))
        // The writer takes the first line and then waits in its write.
        try await eventually("the writer to take the first line") { stderr.begun.withLock { $0 } == 1 }
        for index in 0..<1_000 { output.append(Array("line \(index)\n".utf8)) }
        #expect(output.droppedLines > 900)
        #expect(!(await output.flush(timeout: .milliseconds(100))))
        stderr.gate.withLock { $0 = true }
        #expect(await output.flush(timeout: .seconds(30)))
        let lines = stderr.lines
        let dropped = output.droppedLines
        #expect(lines.first == "first")
        #expect(lines.last == "dropped \(dropped)", "\(lines)")
        #expect(lines.count == 1_000 - dropped + 2)
        // What was kept is what came first, in order.
        #expect(Array(lines.dropFirst().dropLast()) == (0..<(1_000 - dropped)).map { "line \($0)" })
    }

    @Test func linesThatCannotBeWrittenAreCountedAsDropped() async throws {
        let output = LogOutput(write: { _ in false }) { _ in Array("dropped\n".utf8) }
        output.append(Array("a\n".utf8))
        output.append(Array("b\n".utf8))
        try await eventually("both lines counted") { output.droppedLines == 2 }
        #expect(await output.flush(timeout: .seconds(5)))
    }
}
