import Foundation
import Synchronization
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct StandardInputLinesTests {
    /// A pipe whose write end the test feeds from a plain thread, as a player process would.
    private final class Pipe: Sendable {
        let readEnd: Int32
        let writeEnd: Int32

        init() throws {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw posixError(errno) }
            readEnd = ends[0]
            writeEnd = ends[1]
        }

        func write(_ text: String) {
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) }
                guard written > 0 else { return }
                offset += written
            }
        }

        func closeWriteEnd() { Glibc.close(writeEnd) }
        func closeReadEnd() { Glibc.close(readEnd) }
    }

    @Test func readsAPipeToTheEndInOrderOneLineAtATime() async throws {
        let pipe = try Pipe()
        defer { pipe.closeReadEnd() }
        let writer = Thread {
            for index in 0..<2000 { pipe.write("line \(index)\r\n") }
            pipe.write("\n" + String(repeating: "x", count: 70_000) + "\nafter\n")
            pipe.write("last without newline")
            pipe.closeWriteEnd()
        }
        writer.start()

        let seen = Recorder<RawLine>()
        let inFlight = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
        try await StandardInputLines(fileDescriptor: pipe.readEnd).run { line in
            if inFlight.wrappingAdd(1, ordering: .relaxed).newValue > 1 { overlapped.store(true, ordering: .relaxed) }
            if seen.count % 500 == 0 { try? await Task.sleep(for: .milliseconds(1)) }
            seen.append(line)
            inFlight.wrappingSubtract(1, ordering: .relaxed)
        }

        let lines = seen.all
        let handlersOverlapped = overlapped.load(ordering: .relaxed)
        #expect(!handlersOverlapped)
        #expect(lines.count == 2003)
        #expect(Array(lines.prefix(2000)) == (0..<2000).map { RawLine.text("line \($0)") })
        #expect(lines[2000] == .unreadable(.tooLong(limit: 65536)))
        #expect(lines[2001] == .text("after"))
        #expect(lines[2002] == .text("last without newline"))
    }

    @Test func readsARegularFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/input.txt"
            var content = Data()
            for index in 0..<10_000 { content.append(contentsOf: Array("tick \(index)\n".utf8)) }
            content.append(contentsOf: [0xC3, 0x28, 0x0A])  // invalid UTF-8
            content.append(contentsOf: Array("end".utf8))
            try content.write(to: URL(fileURLWithPath: path))

            let fd = open(path, O_RDONLY | O_CLOEXEC)
            try #require(fd >= 0)
            defer { close(fd) }
            let seen = Recorder<RawLine>()
            try await StandardInputLines(fileDescriptor: fd).run { seen.append($0) }

            let lines = seen.all
            #expect(lines.count == 10_002)
            #expect(lines.first == .text("tick 0"))
            #expect(lines[9_999] == .text("tick 9999"))
            #expect(lines[10_000] == .unreadable(.invalidUTF8))
            #expect(lines.last == .text("end"))
        }
    }

    @Test func emptyInputEndsAtOnce() async throws {
        let pipe = try Pipe()
        defer { pipe.closeReadEnd() }
        pipe.closeWriteEnd()
        let seen = Recorder<RawLine>()
        try await StandardInputLines(fileDescriptor: pipe.readEnd).run { seen.append($0) }
        #expect(seen.all.isEmpty)
    }

    @Test func cancellationInterruptsABlockedRead() async throws {
        let pipe = try Pipe()
        defer {
            pipe.closeWriteEnd()
            pipe.closeReadEnd()
        }
        let seen = Recorder<RawLine>()
        // In a task group, so that however the test ends (a failed wait included) the reader is
        // cancelled and joined before the pipe closes: a read left blocked would outlive the
        // test, and could read from whatever reuses the descriptor's number.
        let outcome = try await withThrowingTaskGroup(of: Result<Void, any Error>.self) { group in
            group.addTask {
                do {
                    try await StandardInputLines(fileDescriptor: pipe.readEnd).run { seen.append($0) }
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            pipe.write("first\n")
            try await eventually("the first line") { seen.count == 1 }
            group.cancelAll()
            return try #require(await group.next())
        }
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(seen.all == [.text("first")])
    }

    @Test func unreadableDescriptorIsAnError() async throws {
        await #expect(throws: StandardInputError.self) {
            try await StandardInputLines(fileDescriptor: 9_999).run { _ in }
        }
    }
}
