import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal

struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one input line to the running daemon and print its reply, if any.",
        discussion: """
            The same lines as on stdin, e.g. 'beaconctl send load https://example.com/live/master.m3u8' \
            (prints the session's JSON line once it is ready), 'beaconctl send pause', 'beaconctl send playhead 1675135534076', \
            'beaconctl send reporter list' (each reporter's state as JSON), 'beaconctl send reporter disable beacons'.
            """
    )

    @OptionGroup var socket: SocketOption

    @Argument(help: "The line, as words.")
    var words: [String]

    func run() async throws {
        let line = words.joined(separator: " ")
        let reply = try await DaemonConnection.request(line, socketPath: socket.path, expectsReply: line.hasPrefix("load ") || line.hasPrefix("reporter ") || line == "status")
        if !reply.isEmpty { StandardOutput.writeLine(reply) }
        if reply.hasPrefix("{\"error\"") { throw ExitCode(1) }
    }
}
