import Foundation
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct ControlSocketServerTests {
    /// Replies `echo <text>` to text lines, `unreadable: <why>` otherwise, nothing to `quiet`.
    static let echo: ControlSocketServer.Handler = { line in
        switch line {
        case .text("quiet"): nil
        case .text(let text): "echo \(text)"
        case .unreadable(let why): "unreadable: \(why)"
        }
    }

    @Test func repliesComeBackInOrder() async throws {
        try await withTemporaryDirectory { directory in
            let server = ControlSocketServer(path: directory + "/ctl.sock") { line in
                // Later lines finish faster: order must come from the server, not from timing.
                if case .text(let text) = line, let number = Int(text) {
                    try? await Task.sleep(for: .milliseconds(20 - number * 4))
                }
                return await Self.echo(line)
            }
            try await whileRunning(server) {
                let client = try RawClient(path: server.path)
                try await client.send("1\n2\n3")
                try await client.send("\n4\r\n")
                for expected in ["echo 1", "echo 2", "echo 3", "echo 4"] {
                    #expect(try await client.readLine() == expected)
                }
            }
        }
    }

    @Test func nilFromTheHandlerWritesNothing() async throws {
        try await withTemporaryDirectory { directory in
            let server = ControlSocketServer(path: directory + "/ctl.sock", handler: Self.echo)
            try await whileRunning(server) {
                let client = try RawClient(path: server.path)
                try await client.send("quiet\nping\nquiet\n")
                #expect(try await client.readLine() == "echo ping")
                #expect(try await client.staysSilent(for: .milliseconds(300)))
            }
        }
    }

    @Test func socketFileIsOwnerOnlyAndItsDirectoryIsCreatedPrivate() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/run/beacon/ctl.sock"
            let server = ControlSocketServer(path: path, handler: Self.echo)
            try await whileRunning(server) {
                var info = stat()
                try #require(lstat(path, &info) == 0)
                #expect(info.st_mode & S_IFMT == S_IFSOCK)
                #expect(info.st_mode & 0o777 == 0o600)
                try #require(stat(directory + "/run/beacon", &info) == 0)
                #expect(info.st_mode & 0o777 == 0o700)
                try #require(stat(directory + "/run", &info) == 0)
                #expect(info.st_mode & 0o777 == 0o700)
            }
        }
    }

    @Test func directoryOthersMayWriteToIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            let shared = directory + "/shared"
            try #require(mkdir(shared, 0o700) == 0 && chmod(shared, 0o1777) == 0)
            let server = ControlSocketServer(path: shared + "/ctl.sock", handler: Self.echo)
            let refusal = ControlSocketError.unsafeDirectory(path: shared, reason: "others may write to it (mode 1777)")
            await #expect(throws: refusal) { try await server.bind() }
            #expect(refusal.description.hasPrefix("refusing to put the control socket in \(shared): others may write"))
            #expect(!FileManager.default.fileExists(atPath: shared + "/ctl.sock"))
        }
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
    func directoryOfAnotherUserIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            let theirs = directory + "/theirs"
            try #require(mkdir(theirs, 0o700) == 0 && chown(theirs, 65534, 65534) == 0)
            let server = ControlSocketServer(path: theirs + "/ctl.sock", handler: Self.echo)
            await #expect(throws: ControlSocketError.unsafeDirectory(path: theirs, reason: "it belongs to uid 65534, not to this user (uid 0)")) {
                try await server.bind()
            }
        }
    }

    @Test func clientOverTheLimitIsRefusedAndOthersKeepWorking() async throws {
        try await withTemporaryDirectory { directory in
            let server = ControlSocketServer(path: directory + "/ctl.sock", maxClients: 3, handler: Self.echo)
            try await whileRunning(server) {
                var clients: [RawClient] = []
                for index in 0..<3 {
                    let client = try RawClient(path: server.path)
                    try await client.send("hello \(index)\n")
                    #expect(try await client.readLine() == "echo hello \(index)")
                    clients.append(client)
                }

                let extra = try RawClient(path: server.path)
                try await extra.send("let me in\n")
                #expect(try await extra.readLine() == "error too many clients")
                #expect(try await extra.readLine() == nil)

                for (index, client) in clients.enumerated() {
                    try await client.send("still \(index)\n")
                    #expect(try await client.readLine() == "echo still \(index)")
                }

                // A slot freed by a client that left is usable again.
                clients.removeFirst()
                var answer: String?
                for _ in 0..<50 where answer != "echo again" {
                    let probe = try RawClient(path: server.path)
                    try await probe.send("again\n")
                    answer = try await probe.readLine()
                    if answer != "echo again" { try await Task.sleep(for: .milliseconds(20)) }
                }
                #expect(answer == "echo again")
            }
        }
    }

    @Test func clientThatFloodsAndNeverReadsStallsNobody() async throws {
        try await withTemporaryDirectory { directory in
            let floodLines = Recorder<String>()
            // 1 KiB replies: 10 000 of them are far more than the socket and its outbound buffer hold.
            let bigReply = String(repeating: "r", count: 1024)
            let server = ControlSocketServer(path: directory + "/ctl.sock") { line in
                guard case .text(let text) = line else { return nil }
                if text.hasPrefix("flood ") {
                    floodLines.append(text)
                    return bigReply
                }
                return "echo \(text)"
            }
            try await whileRunning(server) {
                let flooder = try RawClient(path: server.path)
                let flood = Task {
                    for batch in 0..<100 {
                        let text = (0..<100).map { "flood \(batch * 100 + $0)\n" }.joined()
                        try await flooder.send(text)
                    }
                }
                try await eventually("the flood to start") { floodLines.count > 100 }

                let other = try RawClient(path: server.path)
                for index in 0..<5 {
                    try await other.send("ping \(index)\n")
                    #expect(try await other.readLine(timeout: .seconds(5)) == "echo ping \(index)")
                }

                try await flood.value
                // Every flood line is handled although its replies are never read.
                try await eventually(timeout: .seconds(30), "all flood lines") { floodLines.count == 10_000 }
                #expect(floodLines.all.last == "flood 9999")

                try await other.send("after\n")
                #expect(try await other.readLine(timeout: .seconds(5)) == "echo after")

                // Replies that found the flooder's buffer full were dropped, not queued.
                var delivered = 0
                while (try? await flooder.readLine(timeout: .milliseconds(500))) != nil { delivered += 1 }
                #expect(delivered > 0)
                #expect(delivered < 10_000)
            }
        }
    }

    @Test func overLongLineIsRejectedAndTheConnectionSurvives() async throws {
        try await withTemporaryDirectory { directory in
            let seen = Recorder<RawLine>()
            let server = ControlSocketServer(path: directory + "/ctl.sock") { line in
                seen.append(line)
                return await Self.echo(line)
            }
            try await whileRunning(server) {
                let client = try RawClient(path: server.path)
                try await client.send(String(repeating: "x", count: 100 * 1024) + "\nnext\n")
                #expect(try await client.readLine() == "unreadable: line longer than 65536 bytes")
                #expect(try await client.readLine() == "echo next")
                #expect(seen.all == [.unreadable(.tooLong(limit: 65536)), .text("next")])
            }
        }
    }

    @Test func slowClientDoesNotBlockOthers() async throws {
        try await withTemporaryDirectory { directory in
            let server = ControlSocketServer(path: directory + "/ctl.sock", handler: Self.echo)
            try await whileRunning(server) {
                let slow = try RawClient(path: server.path)
                try await slow.send("sl")
                let fast = try RawClient(path: server.path)
                try await fast.send("fast\n")
                #expect(try await fast.readLine(timeout: .seconds(5)) == "echo fast")
                try await slow.send("o")
                try await fast.send("faster\n")
                #expect(try await fast.readLine(timeout: .seconds(5)) == "echo faster")
                try await slow.send("w\n")
                #expect(try await slow.readLine() == "echo slow")
            }
        }
    }

    @Test func halfClosedClientStillGetsItsReplies() async throws {
        try await withTemporaryDirectory { directory in
            let server = ControlSocketServer(path: directory + "/ctl.sock") { line in
                // Still busy when the client's EOF arrives.
                try? await Task.sleep(for: .milliseconds(50))
                return await Self.echo(line)
            }
            try await whileRunning(server) {
                let client = try RawClient(path: server.path)
                try await client.send("one\ntwo\nthree without newline")
                client.shutdownWrite()
                #expect(try await client.readLine() == "echo one")
                #expect(try await client.readLine() == "echo two")
                #expect(try await client.readLine() == "echo three without newline")
                #expect(try await client.readLine() == nil)
            }
        }
    }

    @Test func largeReplyPendingAtTheClientsEOFIsWrittenInFull() async throws {
        try await withTemporaryDirectory { directory in
            // Far more than the kernel socket buffer: most of it still sits in NIO's buffer when
            // the connection ends, and closing must not discard it.
            let reply = String(repeating: "y", count: 1 << 20)
            let server = ControlSocketServer(path: directory + "/ctl.sock") { _ in reply }
            try await whileRunning(server) {
                let client = try RawClient(path: server.path)
                try await client.send("big\n")
                client.shutdownWrite()
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await client.readLine()?.count == reply.count)
                #expect(try await client.readLine() == nil)
            }
        }
    }

    @Test func secondServerOnALivePathFailsClearlyAndTheFirstKeepsServing() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/ctl.sock"
            let first = ControlSocketServer(path: path, handler: Self.echo)
            try await whileRunning(first) {
                let second = ControlSocketServer(path: path, handler: Self.echo)
                await #expect(throws: ControlSocketError.alreadyListening(path: path)) {
                    try await second.bind()
                }
                #expect(
                    ControlSocketError.alreadyListening(path: path).description
                        == "another beaconctl is listening on \(path)"
                )
                let client = try RawClient(path: path)
                try await client.send("still mine\n")
                #expect(try await client.readLine() == "echo still mine")
            }
        }
    }

    @Test func staleSocketFileIsReplaced() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/ctl.sock"
            try makeStaleSocketFile(at: path)
            #expect(UnixSocketPath.probe(path) == .stale)

            let server = ControlSocketServer(path: path, handler: Self.echo)
            try await whileRunning(server) {
                let client = try RawClient(path: path)
                try await client.send("hi\n")
                #expect(try await client.readLine() == "echo hi")
            }
        }
    }

    @Test func otherFileAtThePathIsLeftAlone() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/ctl.sock"
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
            let server = ControlSocketServer(path: path, handler: Self.echo)
            await #expect(throws: ControlSocketError.notASocket(path: path)) { try await server.bind() }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        }
    }

    @Test func pathTooLongForSunPathIsAClearError() async throws {
        let path = "/tmp/" + String(repeating: "p", count: 120) + "/ctl.sock"
        let server = ControlSocketServer(path: path, handler: Self.echo)
        await #expect(throws: ControlSocketError.pathTooLong(path: path, limit: 107)) { try await server.bind() }
    }

    @Test func cancellingRunClosesClientsAndRemovesTheSocketFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/ctl.sock"
            let server = ControlSocketServer(path: path, handler: Self.echo)
            try await server.bind()
            #expect(FileManager.default.fileExists(atPath: path))

            let serving = Task { try await server.run() }
            let client = try RawClient(path: path)
            try await client.send("hi\n")
            #expect(try await client.readLine() == "echo hi")

            serving.cancel()
            try await serving.value
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(try await client.readLine(timeout: .seconds(5)) == nil)
        }
    }

    @Test func runWithoutBindBindsItself() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/ctl.sock"
            let server = ControlSocketServer(path: path, handler: Self.echo)
            let serving = Task { try await server.run() }
            defer { serving.cancel() }
            try await eventually("the socket file") { FileManager.default.fileExists(atPath: path) }
            #expect(try await ControlSocketClient.request(path: path, line: "x", timeout: .seconds(5)) == "echo x")
            serving.cancel()
            try await serving.value
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}

/// Leaves a socket file nobody listens on, as a crashed daemon would.
func makeStaleSocketFile(at path: String) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw posixError(errno) }
    defer { close(fd) }
    let result = UnixSocketPath.withSocketAddress(path) { bind(fd, $0, $1) }
    guard result == 0 else { throw posixError(errno) }
}
