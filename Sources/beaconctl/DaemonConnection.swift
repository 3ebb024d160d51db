import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Synchronization

/// Lines to the running daemon over its control socket, with the errors a person can act on.
enum DaemonConnection {
    /// Sends `line` and returns the reply, or "" when the line asks for none.
    ///
    /// Warns once per process, on stderr, when the daemon speaks another API level: a `status`
    /// reply says which; before any other line a `status` request asks.
    static func request(
        _ line: String, socketPath: String, expectsReply: Bool = true, maxReplyBytes: Int = ControlSocketClient.defaultMaxReplyBytes
    ) async throws -> String {
        if line != "status", !apiLevelChecked.load(ordering: .relaxed),
            let status = try? await ControlSocketClient.request(path: socketPath, line: "status", timeout: .seconds(5)) {
            checkAPILevel(statusReply: status)
        }
        let reply = try await exchange(line, socketPath: socketPath, expectsReply: expectsReply, maxReplyBytes: maxReplyBytes)
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

    private static func exchange(_ line: String, socketPath: String, expectsReply: Bool, maxReplyBytes: Int) async throws -> String {
        // A load waits for the ad server's session init, which may take a while.
        let timeout: Duration = line.hasPrefix("load ") ? .seconds(60) : .seconds(5)
        do {
            return try await ControlSocketClient.request(path: socketPath, line: line, timeout: timeout, maxReplyBytes: maxReplyBytes)
        } catch ControlSocketClientError.closedWithoutReply where !expectsReply {
            return ""
        } catch let error as ControlSocketClientError {
            throw failure(error)
        }
    }

    /// Sends `line` and hands each line the daemon streams back to `receive`, until it closes.
    static func follow(_ line: String, socketPath: String, receive: (String) async throws -> Void) async throws {
        do {
            try await ControlSocketClient.follow(path: socketPath, line: line, receive: receive)
        } catch let error as ControlSocketClientError {
            throw failure(error)
        }
    }

    /// Says what went wrong on stderr; the exit status to leave with.
    private static func failure(_ error: ControlSocketClientError) -> ExitCode {
        StandardOutput.writeError("beaconctl: \(message(for: error))")
        return ExitCode(1)
    }

    /// What went wrong, for a person.
    static func message(for error: ControlSocketClientError) -> String {
        switch error {
        case .noDaemon(let path): "no daemon is listening on \(path) (start one with 'beaconctl run', or pass --socket)"
        default: "\(error)"
        }
    }
}
