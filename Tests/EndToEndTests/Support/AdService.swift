import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Synchronization

/// A test ad-insertion service on 127.0.0.1: session init (per test, and MediaTailor's, see
/// ``ServedDialect``), a metadata answer the test may change between refreshes (a document, or any fault), and a beacon sink that records every request.
final class AdService: Sendable {
    typealias Request = HTTPServer.Request
    typealias Response = HTTPServer.Response
    /// Answers a request the service does not handle itself (session init, playlists); nil for 404.
    typealias Route = @Sendable (Request) async -> Response?

    /// One request as the service saw it.
    struct Received: Sendable {
        var method: String
        var uri: String
        var path: String
        var query: String?
        var at: ContinuousClock.Instant
    }

    /// How the service answers metadata requests.
    typealias MetadataAnswer = @Sendable () async -> Response

    /// How the sink answers the beacon URLs containing a given text.
    enum SinkBehaviour: Sendable {
        case status(Int)
        case delay(Duration)
    }

    static let sinkPath = "/beacon"

    private struct State {
        var received: [Received] = []
        var metadata: MetadataAnswer = { .status(404) }
        var behaviours: [(match: String, behaviour: SinkBehaviour)] = []
    }

    /// The state, shared with the server's handler.
    private final class Storage: Sendable {
        let state = Mutex(State())
    }

    private let storage: Storage
    let server: HTTPServer

    var baseURL: String { server.baseURL }

    /// Starts the service on `port` (0: any free one); `route` answers what is neither metadata nor a beacon.
    static func start(route: Route? = nil, port: Int = 0) async throws -> AdService {
        let storage = Storage()
        let server = try await HTTPServer.start(host: "127.0.0.1", port: port) { request in
            storage.state.withLock {
                $0.received.append(
                    Received(method: request.method, uri: request.uri, path: request.path, query: request.query, at: request.receivedAt))
            }
            if request.path == sinkPath {
                let behaviour = storage.state.withLock { state in state.behaviours.first { request.uri.contains($0.match) }?.behaviour }
                switch behaviour {
                case .status(let status)?: return .status(status)
                case .delay(let delay)?: return await .delayed(delay, .status(204))
                case nil: return .status(200)
                }
            }
            if let response = await route?(request) { return response }
            if request.method == "POST", request.path == ServedDialect.sessionInitPath { return ServedDialect.sessionInitAnswer }
            // Harmonic's metadata URL, or MediaTailor's tracking URL.
            if request.method == "GET", request.path.hasSuffix("/metadata") || request.path.hasPrefix(ServedDialect.trackingPathPrefix) {
                let answer = storage.state.withLock { $0.metadata }
                return await answer()
            }
            return .status(404)
        }
        return AdService(server: server, storage: storage)
    }

    private init(server: HTTPServer, storage: Storage) {
        self.server = server
        self.storage = storage
    }

    func stop() async { await server.stop() }

    // MARK: Metadata

    /// Serves `document` from every `.../metadata` path from now on.
    func serve(_ document: MetadataDocument) {
        serve(body: document.encodedJSON())
    }

    /// Serves `body` as is (a broken document, say) from every `.../metadata` path, and MediaTailor's
    /// tracking path, from now on.
    func serve(body: String) {
        answerMetadata { .json(body) }
    }

    /// Answers every `.../metadata` request with `answer` from now on: an error status, a redirect,
    /// a body that drips or never ends, no answer at all.
    func answerMetadata(_ answer: @escaping MetadataAnswer) {
        storage.state.withLock { $0.metadata = answer }
    }

    /// GETs on metadata paths so far.
    var metadataRequests: [Received] { received.filter { $0.method == "GET" && $0.path.hasSuffix("/metadata") } }

    // MARK: Sink

    /// The signaling URL of `event` of ad `ad` on this sink; `extra` is appended to the query.
    func beaconURL(ad: String, _ event: TrackingEventType, extra: String = "") -> String {
        "\(baseURL)\(Self.sinkPath)?ad=\(ad)&cn=\(event.rawValue)\(extra)"
    }

    /// From now on, beacon URLs containing `match` get `behaviour`.
    func answerBeacons(containing match: String, with behaviour: SinkBehaviour) {
        storage.state.withLock { $0.behaviours.append((match, behaviour)) }
    }

    var received: [Received] { storage.state.withLock { $0.received } }

    var beacons: [Received] { received.filter { $0.path == Self.sinkPath } }

    /// Beacons received for `event` of ad `ad`.
    func beacons(ad: String, _ event: TrackingEventType) -> [Received] {
        beacons.filter { Self.query($0.query, has: "ad", ad) && Self.query($0.query, has: "cn", event.rawValue) }
    }

    func beaconCount(ad: String, _ event: TrackingEventType) -> Int { beacons(ad: ad, event).count }

    /// `ad/event` of every beacon received, for messages.
    var beaconSummary: String {
        beacons.map { $0.uri }.joined(separator: "\n")
    }

    private static func query(_ query: String?, has name: String, _ value: String) -> Bool {
        (query ?? "").split(separator: "&").contains { $0 == "\(name)=\(value)" }
    }
}

/// Runs `body` with an ad service started on `port` (0: any free one), and always stops it.
func withAdService<R>(route: AdService.Route? = nil, port: Int = 0, _ body: (AdService) async throws -> R) async throws -> R {
    let service = try await AdService.start(route: route, port: port)
    do {
        let result = try await body(service)
        await service.stop()
        return result
    } catch {
        await service.stop()
        throw error
    }
}
