import Synchronization
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// Lines answered with a stream: `events follow` on the control socket.
@Suite(.timeLimit(.minutes(2))) struct ControlSocketStreamTests {
    /// A server whose line `follow` opens a stream the test feeds; other lines are echoed.
    final class Streams: Sendable {
        let opened = Recorder<AsyncStream<String>.Continuation>()
        let ended = Atomic<Int>(0)

        func server(path: String) -> ControlSocketServer {
            ControlSocketServer(path: path, responder: { line, _ in
                guard case .text(let text) = line else { return .none }
                guard text == "follow" else { return .line("echo \(text)") }
                let (stream, continuation) = AsyncStream.makeStream(of: String.self)
                continuation.onTermination = { _ in self.ended.wrappingAdd(1, ordering: .relaxed) }
                self.opened.append(continuation)
                return .stream(stream)
            })
        }

        func yield(_ line: String) {
            for continuation in opened.all { continuation.yield(line) }
        }
    }

    @Test func streamedLinesArriveAsTheyComeUntilTheStreamEnds() async throws {
        try await withTemporaryDirectory { directory in
            let streams = Streams()
            let server = streams.server(path: directory + "/ctl.sock")
            try await whileRunning(server) {
                let client = try RawClient(path: server.path)
                try await client.send("first\nfollow\n")
                #expect(try await client.readLine() == "echo first")
                try await eventually("the stream opened") { streams.opened.count == 1 }
                streams.yield("one")
                #expect(try await client.readLine() == "one")
                // Once streaming, the client's lines get no reply.
                try await client.send("ignored\n")
                streams.yield("two")
                #expect(try await client.readLine() == "two")
                streams.opened.all[0].finish()
                #expect(try await client.readLine() == nil)
            }
        }
    }

    @Test func aClientClosingItsSideEndsItsStream() async throws {
        try await withTemporaryDirectory { directory in
            let streams = Streams()
            let server = streams.server(path: directory + "/ctl.sock")
            try await whileRunning(server) {
                let client = try RawClient(path: server.path)
                try await client.send("follow\n")
                try await eventually("the stream opened") { streams.opened.count == 1 }
                #expect(streams.ended.load(ordering: .relaxed) == 0)
                client.shutdownWrite()
                try await eventually("the stream ended") { streams.ended.load(ordering: .relaxed) == 1 }
                #expect(try await client.readLine() == nil)
            }
        }
    }

    @Test func stoppingTheServerEndsStreams() async throws {
        try await withTemporaryDirectory { directory in
            let streams = Streams()
            let server = streams.server(path: directory + "/ctl.sock")
            let client = try await whileRunning(server) {
                let client = try RawClient(path: server.path)
                try await client.send("follow\n")
                try await eventually("the stream opened") { streams.opened.count == 1 }
                return client
            }
            #expect(streams.ended.load(ordering: .relaxed) == 1)
            #expect(try await client.readLine() == nil)
        }
    }

    @Test func aStreamingClientThatNeverReadsIsDisconnectedAndStallsNobody() async throws {
        try await withTemporaryDirectory { directory in
            let streams = Streams()
            let server = streams.server(path: directory + "/ctl.sock")
            try await whileRunning(server) {
                let stalled = try RawClient(path: server.path)
                try await stalled.send("follow\n")
                try await eventually("the stream opened") { streams.opened.count == 1 }
                let other = try RawClient(path: server.path)
                // 16 KiB lines: a few hundred fill the socket and the connection's outbound buffer.
                let big = String(repeating: "s", count: 16 * 1024)
                var yielded = 0
                while streams.ended.load(ordering: .relaxed) == 0 {
                    streams.yield(big)
                    yielded += 1
                    if yielded % 50 == 0 {
                        try await other.send("ping \(yielded)\n")
                        #expect(try await other.readLine(timeout: .seconds(5)) == "echo ping \(yielded)")
                    }
                    #expect(yielded < 100_000, "never disconnected")
                    if yielded >= 100_000 { return }
                    try await Task.sleep(for: .milliseconds(1))
                }
                // Everything written before the cut arrives, then the end of the stream: nothing was skipped.
                var received = 0
                while let line = try await stalled.readLine() {
                    #expect(line == big)
                    received += 1
                }
                #expect(received > 0 && received < yielded)
            }
        }
    }
}
