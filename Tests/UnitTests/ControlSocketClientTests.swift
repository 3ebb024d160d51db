import Foundation
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct ControlSocketClientTests {
    @Test func sendsOneLineAndReturnsTheReply() async throws {
        try await withTemporaryDirectory { directory in
            let server = ControlSocketServer(path: directory + "/ctl.sock", handler: ControlSocketServerTests.echo)
            try await whileRunning(server) {
                let reply = try await ControlSocketClient.request(path: server.path, line: "status", timeout: .seconds(5))
                #expect(reply == "echo status")
            }
        }
    }

    @Test func noDaemonWhenTheSocketFileIsMissing() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/ctl.sock"
            await #expect(throws: ControlSocketClientError.noDaemon(path: path)) {
                try await ControlSocketClient.request(path: path, line: "status", timeout: .seconds(5))
            }
            #expect(
                ControlSocketClientError.noDaemon(path: path).description
                    == "no beaconctl daemon is listening on \(path)"
            )
        }
    }

    @Test func noDaemonWhenTheSocketFileIsStale() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/ctl.sock"
            try makeStaleSocketFile(at: path)
            await #expect(throws: ControlSocketClientError.noDaemon(path: path)) {
                try await ControlSocketClient.request(path: path, line: "status", timeout: .seconds(5))
            }
        }
    }

    @Test func noDaemonAfterTheServerStopped() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/ctl.sock"
            let server = ControlSocketServer(path: path, handler: ControlSocketServerTests.echo)
            try await whileRunning(server) {}
            await #expect(throws: ControlSocketClientError.noDaemon(path: path)) {
                try await ControlSocketClient.request(path: path, line: "status", timeout: .seconds(5))
            }
        }
    }

    @Test func timesOutWhenNoReplyComes() async throws {
        try await withTemporaryDirectory { directory in
            // A daemon that takes its time: the half-closed client must give up at its timeout.
            let server = ControlSocketServer(path: directory + "/ctl.sock") { _ in
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            try await whileRunning(server) {
                let started = ContinuousClock.now
                await #expect(throws: ControlSocketClientError.timedOut) {
                    try await ControlSocketClient.request(path: server.path, line: "status", timeout: .milliseconds(200))
                }
                #expect(ContinuousClock.now - started < .seconds(15), "gave up at its timeout, not when the server did")
            }
        }
    }

    @Test func closedWithoutReplyWhenTheServerHangsUp() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/ctl.sock"
            // A listener that accepts and closes at once, without a reply.
            let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            try #require(listener >= 0)
            defer { close(listener) }
            try #require(UnixSocketPath.withSocketAddress(path) { bind(listener, $0, $1) } == 0)
            try #require(listen(listener, 4) == 0)
            let acceptor = Thread {
                let connection = accept(listener, nil, nil)
                if connection >= 0 { close(connection) }
            }
            acceptor.start()
            await #expect(throws: ControlSocketClientError.closedWithoutReply) {
                try await ControlSocketClient.request(path: path, line: "status", timeout: .seconds(5))
            }
        }
    }

    @Test func refusedClientSeesTheTooManyClientsLine() async throws {
        try await withTemporaryDirectory { directory in
            let server = ControlSocketServer(path: directory + "/ctl.sock", maxClients: 1, handler: ControlSocketServerTests.echo)
            try await whileRunning(server) {
                let holder = try RawClient(path: server.path)
                try await holder.send("hold\n")
                #expect(try await holder.readLine() == "echo hold")
                let reply = try await ControlSocketClient.request(path: server.path, line: "status", timeout: .seconds(5))
                #expect(reply == ControlSocketServer.tooManyClientsReply)
            }
        }
    }
}
