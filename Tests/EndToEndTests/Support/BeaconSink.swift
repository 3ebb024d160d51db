import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Glibc
import Synchronization

/// A beacon server on 127.0.0.1 that can go down (connections refused) and come back on the same
/// port, and answers each request as the test says, given how often its URL came before.
final class BeaconSink: Sendable {
    /// How the sink answers the `count`-th request (1-based) of `uri`.
    typealias Answer = @Sendable (_ uri: String, _ count: Int) async -> HTTPServer.Response

    /// One request as the sink saw it (answered or not).
    struct Received: Sendable {
        var uri: String
        var at: ContinuousClock.Instant
    }

    private struct State {
        var server: HTTPServer?
        /// While down: the port, held (``PortHold``).
        var hold: Int32?
        var received: [Received] = []
        var answer: Answer = { _, _ in .status(204) }
    }

    private final class Storage: Sendable {
        let state = Mutex(State())

        func handle(_ request: HTTPServer.Request) async -> HTTPServer.Response {
            let (count, answer) = state.withLock { state in
                state.received.append(Received(uri: request.uri, at: request.receivedAt))
                return (state.received.count { $0.uri == request.uri }, state.answer)
            }
            return await answer(request.uri, count)
        }
    }

    private let storage: Storage
    let port: Int

    private init(storage: Storage, port: Int) {
        self.storage = storage
        self.port = port
    }

    static func start() async throws -> BeaconSink {
        let storage = Storage()
        let server = try await HTTPServer.start(port: 0) { await storage.handle($0) }
        storage.state.withLock { $0.server = server }
        return BeaconSink(storage: storage, port: server.port)
    }

    /// Stops listening: connections are refused until ``up()``.
    func down() async {
        let server = storage.state.withLock { state in
            defer { state.server = nil }
            return state.server
        }
        guard let server else { return }
        await server.stop()
        let hold = PortHold.take(port: port)
        storage.state.withLock { $0.hold = hold }
    }

    /// Gone for good: the port is let go.
    func stop() async {
        await down()
        releaseHold()
    }

    private func releaseHold() {
        if let hold = storage.state.withLock({ state in defer { state.hold = nil }; return state.hold }) { close(hold) }
    }

    /// Listens again on the same port.
    func up() async throws {
        releaseHold()
        let storage = storage
        let server = try await HTTPServer.start(port: port) { await storage.handle($0) }
        storage.state.withLock { $0.server = server }
    }

    /// From now on, requests are answered by `answer`.
    func answer(_ answer: @escaping Answer) {
        storage.state.withLock { $0.answer = answer }
    }

    func url(ad: String, _ event: TrackingEventType) -> String {
        "http://127.0.0.1:\(port)/beacon?ad=\(ad)&cn=\(event.rawValue)"
    }

    var received: [Received] { storage.state.withLock { $0.received } }

    /// Requests of the signaling URL of `event` of ad `ad`.
    func count(ad: String, _ event: TrackingEventType) -> Int {
        let uri = "/beacon?ad=\(ad)&cn=\(event.rawValue)"
        return received.count { $0.uri == uri }
    }

    var summary: String { received.map(\.uri).joined(separator: "\n") }
}

/// Runs `body` with a started sink, and always stops it.
func withBeaconSink<R>(_ body: (BeaconSink) async throws -> R) async throws -> R {
    let sink = try await BeaconSink.start()
    do {
        let result = try await body(sink)
        await sink.stop()
        return result
    } catch {
        await sink.stop()
        throw error
    }
}
