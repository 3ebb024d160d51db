import ArgumentParser
import BeaconCore
import Synchronization

/// One line to the running daemon over its control socket, with the errors a person can act on.
enum DaemonConnection {
    /// Sends `line` and returns the reply, or "" when the line asks for none.
    ///
    /// Warns once per process, on stderr, when the daemon speaks another API level: a `status`
    /// reply says which; before any other line a `status` request asks.
    static func request(_ line: String, socketPath: String, expectsReply: Bool = true) async throws -> String {
        if line != "status", !apiLevelChecked.load(ordering: .relaxed),
            let status = try? await ControlSocketClient.request(path: socketPath, line: "status", timeout: .seconds(5)) {
            checkAPILevel(statusReply: status)
        }
        let reply = try await exchange(line, socketPath: socketPath, expectsReply: expectsReply)
        if line == "status" { checkAPILevel(statusReply: reply) }
        return reply
    }

    private static let apiLevelChecked = Atomic<Bool>(false)

    private static func checkAPILevel(statusReply: String) {
        guard let level = StatusReport.apiLevel(inJSONLine: statusReply),
            apiLevelChecked.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged,
            level != StatusReport.currentAPILevel
        else { return }
        StandardOutput.writeError(
            "beaconctl: warning: the daemon speaks API level \(level), this beaconctl \(StatusReport.currentAPILevel); replies may be misread")
    }

    private static func exchange(_ line: String, socketPath: String, expectsReply: Bool) async throws -> String {
        // A load waits for the ad server's session init, which may take a while.
        let timeout: Duration = line.hasPrefix("load ") ? .seconds(60) : .seconds(5)
        do {
            return try await ControlSocketClient.request(path: socketPath, line: line, timeout: timeout)
        } catch ControlSocketClientError.noDaemon(let path) {
            StandardOutput.writeError("beaconctl: no daemon is listening on \(path) (start one with 'beaconctl run', or pass --socket)")
            throw ExitCode(1)
        } catch ControlSocketClientError.closedWithoutReply where !expectsReply {
            return ""
        } catch let error as ControlSocketClientError {
            StandardOutput.writeError("beaconctl: \(error)")
            throw ExitCode(1)
        }
    }
}
