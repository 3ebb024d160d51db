import BeaconDomain
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A small HTTP/1.1 server: the daemon's `/metrics` endpoint, the simulated ad-insertion
/// service of `beaconctl demo`, and real servers for tests.
///
/// Every request is answered by an async handler. Connections are persistent
/// (keep-alive) unless the client asks otherwise, and ``connectionsAccepted`` counts
/// TCP connections so callers can check that a client reuses them. ``stop()`` cancels
/// handlers still running, closes every connection and the listening socket.
///
/// Requests are bounded: the request line and headers by the HTTP decoder (80 KiB, answered
/// with 400), the body by `maxRequestBodyBytes` (answered with 413, then the connection closes).
package final class HTTPServer: Sendable {
    /// One complete request as it arrived.
    package struct Request: Sendable {
        /// The method as sent, e.g. `GET`.
        package var method: String
        /// The request target as sent, e.g. `/track?e=start`.
        package var uri: String
        /// The target without its query, e.g. `/track`.
        package var path: String
        /// The part after `?`, or `nil` when there is none.
        package var query: String?
        /// Header fields in arrival order.
        package var headers: [(name: String, value: String)]
        package var body: [UInt8]
        /// When the request head arrived.
        package var receivedAt: ContinuousClock.Instant

        /// Splits `uri` into ``path`` and ``query``.
        package init(
            method: String, uri: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
            receivedAt: ContinuousClock.Instant = .now
        ) {
            self.method = method
            self.uri = uri
            if let mark = uri.firstIndex(of: "?") {
                self.path = String(uri[..<mark])
                self.query = String(uri[uri.index(after: mark)...])
            } else {
                self.path = uri
                self.query = nil
            }
            self.headers = headers
            self.body = body
            self.receivedAt = receivedAt
        }

        /// The first value of the header `name`, compared case-insensitively.
        package func header(_ name: String) -> String? {
            let wanted = name.lowercased()
            return headers.first { $0.name.lowercased() == wanted }?.value
        }

        /// The body read as UTF-8.
        package var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// What to send back. The server sets `Content-Length` (or chunked encoding) itself.
    package struct Response: Sendable {
        package var status: Int
        package var headers: [(name: String, value: String)]
        package var body: [UInt8]
        /// Sends the body with chunked transfer encoding and no `Content-Length`, as a
        /// streaming server does, so the client cannot know the size in advance.
        package var chunked: Bool
        /// More of the body, sent after `body` chunk by chunk as the stream yields it (chunked
        /// encoding): a slow or endless body. Its end ends the response; its error drops the
        /// connection mid-body.
        package var bodyStream: AsyncThrowingStream<[UInt8], any Error>?

        /// A response; an empty 200 by default.
        package init(
            status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = [], chunked: Bool = false,
            bodyStream: AsyncThrowingStream<[UInt8], any Error>? = nil
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.chunked = chunked || bodyStream != nil
            self.bodyStream = bodyStream
        }

        /// `json` as the body, with `Content-Type: application/json`.
        package static func json(_ json: String, status: Int = 200) -> Response {
            Response(status: status, headers: [("Content-Type", "application/json")], body: Array(json.utf8))
        }

        /// `text` as a UTF-8 plain-text body.
        package static func text(_ text: String, status: Int = 200) -> Response {
            Response(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
        }

        /// An empty body with `status`.
        package static func status(_ status: Int) -> Response {
            Response(status: status)
        }

        /// A redirect to `location` (absolute, or relative to the request).
        package static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, headers: [("Location", location)])
        }
    }

    /// Answers one request; runs concurrently for concurrent requests.
    package typealias Handler = @Sendable (Request) async -> Response

    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    /// The address bound, as given to ``start(host:port:maxRequestBodyBytes:handler:)``.
    package let host: String
    /// The bound port; the one the system chose when started with port 0.
    package let port: Int
    /// `http://HOST:PORT`, without a trailing slash; an IPv6 host in brackets.
    package var baseURL: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }
    /// TCP connections accepted since start.
    package var connectionsAccepted: Int { connections.count.load(ordering: .relaxed) }

    private let connections: AcceptedConnections
    private let listener: any Channel
    private let acceptTask: Task<Void, Never>

    private final class AcceptedConnections: Sendable {
        /// Every connection accepted since start.
        let count = Atomic<Int>(0)
        /// Connections NIO accepted and not yet handed to a handler. NIO drops the ones still
        /// queued when the listener closes, unclosed, and traps on those: stopping closes them here.
        private let unserved = Mutex<[ObjectIdentifier: Connection]>([:])

        func add(_ connection: Connection) {
            count.add(1, ordering: .relaxed)
            unserved.withLock { $0[ObjectIdentifier(connection.channel)] = connection }
        }

        func serving(_ connection: Connection) {
            _ = unserved.withLock { $0.removeValue(forKey: ObjectIdentifier(connection.channel)) }
        }

        func takeUnserved() -> [Connection] {
            unserved.withLock { connections in
                defer { connections = [:] }
                return Array(connections.values)
            }
        }
    }

    private init(host: String, port: Int, connections: AcceptedConnections, listener: any Channel, acceptTask: Task<Void, Never>) {
        self.host = host
        self.port = port
        self.connections = connections
        self.listener = listener
        self.acceptTask = acceptTask
    }

    /// The body size allowed by default: far more than any request beaconctl or its tests make.
    package static let defaultMaxRequestBodyBytes = 1 << 20

    /// Binds `host:port` (port 0 picks a free one) and starts serving with `handler`.
    ///
    /// `host` is an IP address (or a name resolved once, now); loopback unless the caller says otherwise.
    /// - Throws: ``HTTPServerError/cannotListen(host:port:reason:)`` when the address cannot be bound.
    package static func start(
        host: String = "127.0.0.1", port: Int = 0, maxRequestBodyBytes: Int = defaultMaxRequestBodyBytes,
        handler: @escaping Handler
    ) async throws(HTTPServerError) -> HTTPServer {
        let accepted = AcceptedConnections()
        let server: NIOAsyncChannel<Connection, Never>
        do {
            server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .bind(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        let connection = try Connection(wrappingChannelSynchronously: channel)
                        accepted.add(connection)
                        return connection
                    }
                }
        } catch let error as IOError {
            throw .cannotListen(host: host, port: port, reason: UnixSocketPath.errorText(error.errnoCode))
        } catch {
            throw .cannotListen(host: host, port: port, reason: "\(error)")
        }
        let listener = server.channel
        guard let boundPort = listener.localAddress?.port else {
            try? await listener.close()
            throw .cannotListen(host: host, port: port, reason: "no local address after bind")
        }
        let acceptTask = Task<Void, Never> {
            try? await server.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    // Ends when the listener is closed.
                    for try await connection in connections {
                        accepted.serving(connection)
                        group.addTask { await serve(connection, maxBodyBytes: maxRequestBodyBytes, handler: handler) }
                    }
                    // Stopping: the connections still open end now.
                    group.cancelAll()
                }
            }
        }
        return HTTPServer(
            host: host, port: boundPort, connections: accepted, listener: listener, acceptTask: acceptTask)
    }

    /// Stops accepting, cancels running handlers and closes all connections; returns
    /// when everything is closed.
    package func stop() async {
        try? await listener.close()
        await acceptTask.value
        for connection in connections.takeUnserved() {
            try? await connection.executeThenClose { _, _ in }
        }
    }

    private static func serve(_ connection: Connection, maxBodyBytes: Int, handler: Handler) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body: [UInt8] = []
            var receivedAt = ContinuousClock.now
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    // A declared size over the bound is refused before the client sends the body.
                    if let declared = requestHead.headers.first(name: "Content-Length").flatMap(Int.init), declared > maxBodyBytes {
                        try await write(.status(413), for: requestHead, keepAlive: false, to: outbound)
                        return
                    }
                    head = requestHead
                    body = []
                    receivedAt = .now
                case .body(let chunk):
                    guard body.count + chunk.readableBytes <= maxBodyBytes else {
                        if let requestHead = head {
                            try await write(.status(413), for: requestHead, keepAlive: false, to: outbound)
                        }
                        return
                    }
                    body.append(contentsOf: chunk.readableBytesView)
                case .end:
                    guard let requestHead = head else { continue }
                    head = nil
                    let request = Request(
                        method: requestHead.method.rawValue, uri: requestHead.uri,
                        headers: requestHead.headers.map { (name: $0.name, value: $0.value) }, body: body,
                        receivedAt: receivedAt)
                    let response = await handler(request)
                    // Stopping: the handler was cancelled, its answer is not sent.
                    if Task.isCancelled { return }
                    let keepAlive = requestHead.isKeepAlive
                    try await write(response, for: requestHead, keepAlive: keepAlive, to: outbound)
                    if !keepAlive { return }
                }
            }
        }
    }

    private static func write(
        _ response: Response, for request: HTTPRequestHead, keepAlive: Bool,
        to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        headers.remove(name: "Transfer-Encoding")
        headers.remove(name: "Content-Length")
        if response.chunked {
            headers.add(name: "Transfer-Encoding", value: "chunked")
        } else {
            headers.add(name: "Content-Length", value: String(response.body.count))
        }
        headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let head = HTTPResponseHead(
            version: request.version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        try await outbound.write(.head(head))
        if request.method != .HEAD && !response.body.isEmpty {
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
        }
        if request.method != .HEAD, let stream = response.bodyStream {
            // Each write waits for the connection to take the chunk: a client that stops reading stops the stream.
            for try await chunk in stream where !chunk.isEmpty {
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: chunk))))
            }
        }
        try await outbound.write(.end(nil))
    }
}
