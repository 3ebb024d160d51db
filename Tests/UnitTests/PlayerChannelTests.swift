import Testing
@testable import BeaconDomain
@testable import BeaconRuntime

/// Where the heartbeat's notifications reach the player: the connection of the latest `load`
/// while it stays, standard output for stdin and `--media-url`, nowhere once the loader left.
@Suite(.timeLimit(.minutes(2))) struct PlayerChannelTests {
    static let stop = DaemonNotification.playerNotified(.stopPlayback(.heartbeatFailures))
    static let stopLine = PlayerNotification.stopPlayback(.heartbeatFailures).line

    /// Every line of `stream`, once the channel finished.
    static func lines(_ stream: AsyncStream<String>?) async -> [String] {
        var lines: [String] = []
        for await line in stream ?? AsyncStream(unfolding: { nil }) { lines.append(line) }
        return lines
    }

    @Test func theConnectionThatLoadedHearsThePlaybacksNotificationsAndStdoutDoesNot() async throws {
        let channel = PlayerChannel()
        let updates = try #require(channel.loading(from: .controlConnection(3)))
        channel.receive(Self.stop)
        channel.finish()
        #expect(await Self.lines(updates) == [Self.stopLine])
        #expect(await Self.lines(channel.standardOutputLines) == [])
    }

    @Test func otherNotificationsAreNotThePlayers() async throws {
        let channel = PlayerChannel()
        let updates = try #require(channel.loading(from: .controlConnection(1)))
        channel.receive(.lineRejected(reason: "garbage"))
        channel.receive(.sessionEnded(sessionID: "s1"))
        channel.finish()
        #expect(await Self.lines(updates) == [])
    }

    @Test func aLaterLoadTakesTheChannelAndEndsTheFormerUpdates() async throws {
        let channel = PlayerChannel()
        let first = try #require(channel.loading(from: .controlConnection(1)))
        let second = try #require(channel.loading(from: .controlConnection(2)))
        // The first connection's updates ended with the second load: it hears nothing more.
        #expect(await Self.lines(first) == [])
        channel.receive(Self.stop)
        channel.finish()
        #expect(await Self.lines(second) == [Self.stopLine])
    }

    @Test func onceTheLoaderLeftNotificationsGoNowhere() async throws {
        let channel = PlayerChannel()
        let updates = try #require(channel.loading(from: .controlConnection(1)))
        channel.clientLeft(.controlConnection(1))
        #expect(await Self.lines(updates) == [])
        channel.receive(Self.stop)
        channel.finish()
        #expect(await Self.lines(channel.standardOutputLines) == [])
    }

    @Test func anotherClientLeavingChangesNothing() async throws {
        let channel = PlayerChannel()
        let updates = try #require(channel.loading(from: .controlConnection(1)))
        channel.clientLeft(.controlConnection(2))
        channel.clientLeft(.standardInput)
        channel.receive(Self.stop)
        channel.finish()
        #expect(await Self.lines(updates) == [Self.stopLine])
    }

    @Test func aLoadOnStdinOrNoLoadAtAllWritesToStandardOutput() async throws {
        let channel = PlayerChannel()
        // --media-url: no load line, the playback is stdout's.
        channel.receive(Self.stop)
        let connection = try #require(channel.loading(from: .controlConnection(1)))
        #expect(channel.loading(from: .standardInput) == nil)
        #expect(await Self.lines(connection) == [])
        channel.receive(Self.stop)
        channel.finish()
        #expect(await Self.lines(channel.standardOutputLines) == [Self.stopLine, Self.stopLine])
    }

    @Test func aPlayerThatDoesNotReadKeepsTheNewestLines() async throws {
        let channel = PlayerChannel()
        let updates = try #require(channel.loading(from: .controlConnection(1)))
        for index in 0..<(PlayerChannel.backlog + 10) {
            channel.receive(.playerNotified(.blackout(.deny, blackoutURL: "http://slate.example/\(index)")))
        }
        channel.finish()
        let lines = await Self.lines(updates)
        #expect(lines.count == PlayerChannel.backlog)
        #expect(lines.last == PlayerNotification.blackout(.deny, blackoutURL: "http://slate.example/\(PlayerChannel.backlog + 9)").line)
    }
}
