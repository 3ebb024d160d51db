import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal

struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Show the running daemon's event history: errors, warnings and what it did.",
        discussion: """
            One line per event, oldest first: UTC time, type (INFO, WARNING, ERROR), code, name and \
            details as key=value. The daemon keeps the last \(EventHistoryRecorder.defaultCapacity) events. \
            --follow then prints each new event as it happens, until the daemon stops or Ctrl-C; \
            --json prints each event as one JSON line. Exits 1 when no daemon listens on the socket.
            """
    )

    @OptionGroup var socket: SocketOption

    @Flag(help: "Keep printing new events as they happen.")
    var follow = false

    @Flag(help: "Print each event as one JSON line.")
    var json = false

    func run() async throws {
        if follow {
            // Sequence 0: every kept event first, then the new ones.
            try await DaemonConnection.follow("events follow 0", socketPath: socket.path) { line in
                if json {
                    StandardOutput.writeLine(line)
                } else if let entry = try? EventEntry.decode(jsonLine: line) {
                    StandardOutput.writeLine(entry.humanLine())
                } else {
                    StandardOutput.writeError("beaconctl: unreadable event from the daemon: \(line.prefix(200))")
                }
            }
            return
        }
        let reply = try await DaemonConnection.request("events", socketPath: socket.path)
        guard let history = try? EventHistoryReply.decode(jsonLine: reply) else {
            StandardOutput.writeError("beaconctl: the daemon's event history could not be read: \(reply.prefix(200))")
            throw ExitCode(1)
        }
        for entry in history.events {
            StandardOutput.writeLine(json ? entry.jsonLine() : entry.humanLine())
        }
    }
}
