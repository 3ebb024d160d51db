import BeaconDomain
import BeaconRuntime
import Synchronization

/// A reporter for tests of the reporter framework: it hears every notification on its own task,
/// and, while enabled and not quiet, posts each one's name to `endpoint` with its context's HTTP
/// client, so a test sees what a reporter heard, sent and when it ended.
package final class RecordingReporter: Reporter {
    private struct State {
        var enabled = true
        var quiet = false
        /// The name of each notification handled, in order.
        var heard: [String] = []
        var counters: [String: Int] = [:]
        var lastAnswer: String?
        var failuresInARow = 0
        var ended = false
    }

    package let name: ReporterName
    private let client: (any HTTPClient)?
    private let endpoint: String?
    private let state = Mutex(State())
    private let notifications: AsyncStream<DaemonNotification>
    private let input: AsyncStream<DaemonNotification>.Continuation

    package init(name: ReporterName = .mediaAnalytics, client: (any HTTPClient)? = nil, endpoint: String? = nil) {
        self.name = name
        self.client = client
        self.endpoint = endpoint
        (notifications, input) = AsyncStream.makeStream()
    }

    /// Built by the composition root: sends on the client it was given.
    package convenience init(name: ReporterName = .mediaAnalytics, context: ReporterContext, endpoint: String?) {
        self.init(name: name, client: context.client, endpoint: endpoint)
    }

    package func receive(_ notification: DaemonNotification) {
        input.yield(notification)
    }

    package func finish() {
        input.finish()
    }

    package func run() async {
        for await notification in notifications {
            let name = Self.name(of: notification)
            let sending = state.withLock { state in
                state.heard.append(name)
                return state.enabled && !state.quiet
            }
            guard sending, let client, let endpoint else { continue }
            let request = HTTPClientRequest(method: .post, url: endpoint, body: Array(name.utf8), maxResponseBytes: 0)
            let answer: Result<HTTPClientResponse, HTTPClientError>
            do throws(HTTPClientError) { answer = .success(try await client.send(request)) } catch { answer = .failure(error) }
            state.withLock { state in
                switch answer {
                case .success(let response):
                    state.lastAnswer = String(response.status)
                    state.counters["sent", default: 0] += 1
                    state.failuresInARow = 0
                case .failure(let error):
                    state.lastAnswer = error.description
                    state.counters["failed", default: 0] += 1
                    state.failuresInARow += 1
                }
            }
        }
        state.withLock { $0.ended = true }
    }

    package func setEnabled(_ enabled: Bool) async {
        state.withLock { $0.enabled = enabled }
    }

    package func setQuiet(_ quiet: Bool) async {
        state.withLock { $0.quiet = quiet }
    }

    package func status() async -> ReporterStatus {
        state.withLock { state in
            ReporterStatus(
                name: name, configured: true, enabled: state.enabled, state: state.quiet ? "quiet" : "recording",
                lastAnswer: state.lastAnswer, failuresInARow: state.failuresInARow, counters: state.counters)
        }
    }

    /// The notifications handled so far, by name (`sessionReady`, `beaconsDue`...).
    package var heard: [String] { state.withLock { $0.heard } }
    /// Whether `run()` returned: the daemon finished and everything heard was handled.
    package var ended: Bool { state.withLock { $0.ended } }

    private static func name(of notification: DaemonNotification) -> String {
        String(String(describing: notification).prefix { $0 != "(" })
    }
}
