import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the running daemon knows and did.",
        discussion: """
            The human view shows the session URLs, the state, the playhead (UTC, or HH:MM:SS.mmm with the content position on media time), the time to the next ad \
            break, the data range, and every ad break, ad and tracking event with its reporting state \
            (idle, connecting, done, failed). --json prints the status document, one line.
            Exits 1 when no daemon listens on the socket.
            """
    )

    @OptionGroup var socket: SocketOption

    @Flag(help: "Print the status document as JSON.")
    var json = false

    func run() async throws {
        let reply = try await DaemonConnection.request("status", socketPath: socket.path)
        if json {
            StandardOutput.writeLine(reply)
            return
        }
        let report: StatusReport
        do {
            report = try StatusReport.decode(jsonLine: reply)
        } catch {
            StandardOutput.writeError("beaconctl: the daemon's status could not be read: \(reply.prefix(200))")
            throw ExitCode(1)
        }
        StandardOutput.writeLine(StatusView.render(report))
    }
}
