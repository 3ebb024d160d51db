import Synchronization
import Testing
@testable import BeaconDomain
@testable import BeaconRuntime
@testable import BeaconTesting

/// A reply with updates (a `load`'s player notifications): the updates come between the replies
/// to the client's later lines, which it keeps getting, until it leaves.
@Suite(.timeLimit(.minutes(2))) struct ControlSocketUpdatesTests {
    /// A server whose line `load` is answered `loaded` with updates the test feeds; other lines are echoed.
    final class Updates: Sendable {
        let opened = Recorder<AsyncStream<String>.Continuation>()
        let ended = Atomic<Int>(0)

        func server(path: String) -> ControlSocketServer {
            ControlSocketServer(path: path, responder: { line, _ in
                guard case .text(let text) = line else { return .none }
                guard text == "load" else { return .line("echo \(text)") }
                let (stream, continuation) = AsyncStream.makeStream(of: String.self)
                continuation.onTermination = { _ in self.ended.wrappingAdd(1, ordering: .relaxed) }
                self.opened.append(continuation)
                return .lineAndUpdates("loaded", updates: stream)
            })
        }
    }

    /// Runs `body` with a client connected to a running server, its `load` answered.
    static func withLoadedClient(_ body: (Updates, RawClient) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let updates = Updates()
            let server = updates.server(path: directory + "/ctl.sock")
            try await whileRunning(server) {
                let client = try RawClient(path: server.path)
                try await client.send("load\n")
                #expect(try await client.readLine() == "loaded")
                try await body(updates, client)
            }
        }
    }

    @Test func updatesArriveBetweenTheRepliesToLaterLines() async throws {
        try await Self.withLoadedClient { updates, client in
            updates.opened.all[0].yield("first update")
            #expect(try await client.readLine() == "first update")
            try await client.send("status\n")
            #expect(try await client.readLine() == "echo status")
            updates.opened.all[0].yield("second update")
            #expect(try await client.readLine() == "second update")
            // The updates ending leaves the connection open: it still answers.
            updates.opened.all[0].finish()
            try await client.send("ping\n")
            #expect(try await client.readLine() == "echo ping")
        }
    }

    @Test func theClientLeavingEndsItsUpdates() async throws {
        try await Self.withLoadedClient { updates, client in
            #expect(updates.ended.load(ordering: .relaxed) == 0)
            client.shutdownWrite()
            try await eventually("the updates ended") { updates.ended.load(ordering: .relaxed) == 1 }
            #expect(try await client.readLine() == nil)
        }
    }

    @Test func aSecondLoadOnTheConnectionForwardsItsOwnUpdates() async throws {
        try await Self.withLoadedClient { updates, client in
            try await client.send("load\n")
            #expect(try await client.readLine() == "loaded")
            updates.opened.all[1].yield("of the second")
            #expect(try await client.readLine() == "of the second")
        }
    }
}
