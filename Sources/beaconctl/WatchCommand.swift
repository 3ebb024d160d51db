import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "A live view of the running daemon, refreshed in place.",
        discussion: """
            Shows the session, its state, the playhead (UTC, or HH:MM:SS.mmm with the content position on media time), the time to the next ad break, the ad \
            playing with its progress and the reporting state of each of its tracking events, the \
            tracking events in flight, and the last warnings and errors. Ctrl-C ends it.
            When stdout is not a terminal, or with --once, frames are plain text without escape codes. \
            NO_COLOR (any non-empty value) turns colours off. With no daemon it says so and keeps \
            trying each interval; with --once it exits 1.
            """
    )

    @OptionGroup var socket: SocketOption

    @Option(help: ArgumentHelp("Seconds between refreshes.", valueName: "seconds"))
    var interval: Double = 1

    @Flag(help: "Print one plain frame and exit.")
    var once = false

    func validate() throws {
        guard interval.isFinite, interval >= 0.1, interval <= 3600 else {
            throw ValidationError("--interval must be between 0.1 and 3600 seconds")
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let live = Terminal.isStandardOutput && !once
        let colour = live && Terminal.allowsColour(environment: environment)
        if live { Terminal.enterLiveView() }
        defer { if live { Terminal.leaveLiveView() } }
        while true {
            // Plain frames go to files and pipes whole; a terminal's lines are cut to its width.
            let width = live ? Terminal.columns(environment: environment) : Int.max
            let now = WallClock.now()
            let frame: String
            do {
                let (report, history) = try await Self.fetch(socketPath: socket.path)
                frame = WatchView.render(report: report, history: history.events, now: now, width: width, colour: colour)
            } catch let error as ControlSocketClientError {
                if once {
                    StandardOutput.writeError("beaconctl: \(DaemonConnection.message(for: error))")
                    throw ExitCode(1)
                }
                frame = WatchView.waiting(reason: DaemonConnection.message(for: error), now: now, width: width, colour: colour)
            }
            if live {
                Terminal.draw(frame)
            } else {
                StandardOutput.writeLine(frame + "\n")
            }
            if once { return }
            try await Task.sleep(for: .milliseconds(Int64(interval * 1000)))
        }
    }

    private static func fetch(socketPath: String) async throws -> (StatusReport, EventHistoryReply) {
        let status = try await ControlSocketClient.request(path: socketPath, line: "status", timeout: .seconds(5))
        let events = try await ControlSocketClient.request(path: socketPath, line: "events", timeout: .seconds(5))
        do {
            return (try StatusReport.decode(jsonLine: status), try EventHistoryReply.decode(jsonLine: events))
        } catch {
            throw ControlSocketClientError.connectionFailed("unreadable reply from the daemon")
        }
    }
}
