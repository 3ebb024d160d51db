import BeaconDomain
import Synchronization

/// Where the player hears what the reporters tell it (``PlayerNotification``, one JSON line
/// each): the control connection that sent the playback's `load`, while it stays open; standard
/// output when the `load` came on stdin or the playback came from `--media-url`, as the
/// session's JSON line does. Nowhere once that connection left: the event history keeps them.
///
/// Hearing a notification never waits: each line is handed to the connection's task, which sends
/// it between its replies, or to the task writing standard output; at most ``backlog`` lines
/// wait for either, the newest kept.
package final class PlayerChannel: DaemonNotificationSubscriber {
    /// Lines that may wait for a slow reader; a stop comes last, so the newest are kept.
    package static let backlog = 64

    private enum Route {
        case standardOutput
        case connection(InputClient, AsyncStream<String>.Continuation)
        case none
    }

    private let route = Mutex<Route>(.standardOutput)
    private let standardOutput: AsyncStream<String>.Continuation
    /// The lines for standard output, to be written by the task that owns it (`run --stdin`).
    package let standardOutputLines: AsyncStream<String>

    package init() {
        (standardOutputLines, standardOutput) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(Self.backlog))
    }

    /// A `load` from `client`: its playback's notifications go to it from now on. For a control
    /// connection, the lines to send it after the `load`'s reply; nil for stdin.
    package func loading(from client: InputClient) -> AsyncStream<String>? {
        var updates: AsyncStream<String>?
        let next: Route
        if client == .standardInput {
            next = .standardOutput
        } else {
            let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(Self.backlog))
            updates = stream
            next = .connection(client, continuation)
        }
        // Finishing wakes the connection's task: never under the lock (see EventHistoryRecorder).
        let previous = route.withLock { route in
            defer { route = next }
            return route
        }
        if case .connection(_, let continuation) = previous { continuation.finish() }
        return updates
    }

    /// `client` left: if it loaded the playback, the player is no longer reachable.
    package func clientLeft(_ client: InputClient) {
        let left = route.withLock { route -> AsyncStream<String>.Continuation? in
            guard case .connection(let loader, let continuation) = route, loader == client else { return nil }
            route = .none
            return continuation
        }
        left?.finish()
    }

    package func receive(_ notification: DaemonNotification) {
        guard case .playerNotified(let playerNotification) = notification else { return }
        tell(playerNotification.line)
    }

    /// Hands `line` to the player's channel.
    package func tell(_ line: String) {
        switch route.withLock({ $0 }) {
        case .standardOutput: standardOutput.yield(line)
        case .connection(_, let continuation): continuation.yield(line)
        case .none: break
        }
    }

    package func finish() {
        let last = route.withLock { route in
            defer { route = .none }
            return route
        }
        if case .connection(_, let continuation) = last { continuation.finish() }
        standardOutput.finish()
    }
}
