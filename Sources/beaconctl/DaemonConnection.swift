import ArgumentParser
import BeaconCore

/// One line to the running daemon over its control socket, with the errors a person can act on.
enum DaemonConnection {
    /// Sends `line` and returns the reply, or "" when the line asks for none.
    static func request(_ line: String, socketPath: String, expectsReply: Bool = true) async throws -> String {
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
