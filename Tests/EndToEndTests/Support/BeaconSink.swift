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
        /// While down: a socket bound to the port without listening, so that connections are
        /// refused and no other test's server, started meanwhile, gets the port.
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
        let hold = Self.hold(port: port)
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

    /// A TCP socket bound to 127.0.0.1:`port` that never listens; nil when the bind failed.
    private static func hold(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            return nil
        }
        return fd
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
