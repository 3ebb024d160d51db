import BeaconDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The daemon's control socket: a Unix domain stream socket on which any local process of the
/// same user writes text lines, as on standard input, and reads one reply line per answered line.
///
/// Each connection is framed by a ``LineFramer`` and handled on its own: its lines go to the
/// handler one at a time, in order; a non-nil result is written back followed by `\n`.
/// A reply is dropped rather than queued when the client does not read its replies (the
/// connection's outbound buffer is above its high water mark), so such a client never stalls
/// the handling of its own lines nor anyone else's.
///
/// A line may also be answered with a stream (``ControlReply/stream(_:)``): its lines are sent
/// as they come until the stream ends, the client closes its side, or the server stops. A
/// streaming client that stops reading is disconnected once its outbound buffer passes the
/// high water mark, rather than having lines silently dropped. A reply with updates
/// (``ControlReply/lineAndUpdates(_:updates:)``, a `load`'s player notifications) keeps the
/// connection answering its lines: each update is sent between replies, or dropped like a reply
/// when the client does not read.
///
/// Call ``bind()`` to start listening (then report readiness), and ``run()`` to serve.
package final class ControlSocketServer: Sendable {
    /// Handles one line; the result, when not nil, is sent back as one line.
    package typealias Handler = @Sendable (RawLine) async -> String?
    /// Handles one line of a client (each connection is one); the result says what to send back.
    package typealias Responder = @Sendable (RawLine, InputClient) async -> ControlReply

    /// The socket file's path.
    package let path: String
    /// Connections served at once; one more is told `error too many clients` and closed.
    package let maxClients: Int
    /// The largest line accepted, in bytes, without its terminator.
    package let maxLineBytes: Int

    /// The line sent to a connection over ``maxClients`` before it is closed.
    package static let tooManyClientsReply = "error too many clients"

    /// The outbound buffer per connection above which replies are dropped.
    static let writeBufferWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 64 * 1024, high: 256 * 1024)
    /// How long a connection's last replies may take to reach the kernel before it is closed anyway.
    static let flushGracePeriod = TimeAmount.seconds(5)

    private typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>
    private typealias Listener = NIOAsyncChannel<Connection, Never>

    private enum State {
        case idle
        case binding
        case bound(Listener, FileIdentity)
        case running
        case finished
    }

    private let responder: Responder
    private let clientLeft: @Sendable (InputClient) async -> Void
    /// Connections accepted so far: each is named by its number.
    private let connections = Atomic<Int>(0)
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private let state = Mutex<State>(.idle)
    private let activeClients = Atomic<Int>(0)

    /// - Parameters:
    ///   - path: Where the socket file goes; its directory is created with mode 0700 if missing, and
    ///     must belong to this user and be writable by no one else.
    ///   - maxClients: Connections served at once.
    ///   - maxLineBytes: The largest line accepted; a longer one reaches the handler as `.unreadable(.tooLong)`.
    ///   - eventLoopGroup: The NIO event loops the sockets run on.
    ///   - logger: Receives connection-level events (rejections, dropped replies, I/O errors).
    ///   - handler: Called for each line, in order per connection; connections run concurrently.
    package convenience init(
        path: String,
        maxClients: Int = 64,
        maxLineBytes: Int = LineFramer.defaultMaxLineBytes,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "beaconctl.control"),
        handler: @escaping Handler
    ) {
        self.init(
            path: path, maxClients: maxClients, maxLineBytes: maxLineBytes, eventLoopGroup: eventLoopGroup, logger: logger,
            responder: { line, _ in await handler(line).map { .line($0) } ?? .none })
    }

    /// The same, with a responder that may also answer a line with a stream, and is told which
    /// client sent it; `clientLeft` is called once each client's connection has ended.
    package init(
        path: String,
        maxClients: Int = 64,
        maxLineBytes: Int = LineFramer.defaultMaxLineBytes,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "beaconctl.control"),
        responder: @escaping Responder,
        clientLeft: @escaping @Sendable (InputClient) async -> Void = { _ in }
    ) {
        precondition(maxClients > 0, "maxClients must be positive")
        self.path = path
        self.maxClients = maxClients
        self.maxLineBytes = maxLineBytes
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
        self.responder = responder
        self.clientLeft = clientLeft
    }

    /// Creates the socket file (mode 0600) and starts listening; connections queue until ``run()``.
    ///
    /// The socket's directory must belong to this user and be writable by no one else. A stale
    /// socket file (nothing listening) is replaced; a live one is left alone.
    /// - Throws: ``ControlSocketError``: `alreadyListening` when another server answers at
    ///   ``path``, `pathTooLong`, `notASocket`, `cannotCreateDirectory`, `unsafeDirectory`, `cannotBind`.
    package func bind() async throws {
        try state.withLock { state throws(ControlSocketError) in
            guard case .idle = state else { throw .alreadyStarted }
            state = .binding
        }
        do {
            let (listener, identity) = try await listen()
            state.withLock { $0 = .bound(listener, identity) }
        } catch {
            state.withLock { $0 = .idle }
            throw error
        }
    }

    /// Serves connections until the calling task is cancelled, then closes every connection,
    /// removes the socket file and returns. Binds first if ``bind()`` was not called.
    ///
    /// - Throws: what ``bind()`` throws, ``ControlSocketError/acceptFailed(path:reason:)`` if the
    ///   listening socket fails, ``ControlSocketError/alreadyStarted`` on a second call.
    package func run() async throws {
        let needsBind = state.withLock { state in
            if case .idle = state { return true }
            return false
        }
        if needsBind { try await bind() }

        let (listener, identity) = try state.withLock { state throws(ControlSocketError) in
            guard case .bound(let listener, let identity) = state else { throw .alreadyStarted }
            state = .running
            return (listener, identity)
        }
        defer {
            removeSocketFile(ifStill: identity)
            state.withLock { $0 = .finished }
        }

        let acceptError: (any Error)? = try await listener.executeThenClose { connections in
            // Children handle their own errors: one failing connection must not end the server.
            await withDiscardingTaskGroup { group in
                defer {
                    // Leaving the loop means shutdown: closing connections mid-line is fine then.
                    group.cancelAll()
                }
                do {
                    for try await connection in connections {
                        if activeClients.load(ordering: .relaxed) >= maxClients {
                            group.addTask { await self.reject(connection) }
                            continue
                        }
                        activeClients.wrappingAdd(1, ordering: .relaxed)
                        group.addTask {
                            await self.serve(connection)
                            self.activeClients.wrappingSubtract(1, ordering: .relaxed)
                        }
                    }
                    return nil
                } catch {
                    // Cancellation is how the server is asked to stop; anything else is a failure.
                    return Task.isCancelled ? nil : error
                }
            }
        }
        if let acceptError {
            throw ControlSocketError.acceptFailed(path: path, reason: "\(acceptError)")
        }
    }

    // MARK: - Listening

    private func listen() async throws -> (Listener, FileIdentity) {
        guard path.utf8.count <= UnixSocketPath.maxPathBytes else {
            throw ControlSocketError.pathTooLong(path: path, limit: UnixSocketPath.maxPathBytes)
        }
        let directory = UnixSocketPath.parentDirectory(of: path) ?? "."
        try UnixSocketPath.ensureDirectory(directory)
        try UnixSocketPath.checkPrivate(directory)
        try replaceStaleSocketFile()

        let bootstrap = ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.backlog, value: 128)
            .childChannelOption(.writeBufferWaterMark, value: Self.writeBufferWaterMark)
            // Without it NIO closes the connection at the client's EOF and drops pending replies.
            .childChannelOption(.allowRemoteHalfClosure, value: true)

        // The file must be owner-only from the moment it exists: connect(2) needs write
        // permission on it, so a chmod afterwards would leave a window. umask is process-wide;
        // 077 only ever makes files created meanwhile by other threads more private.
        let previousMask = umask(0o077)
        let listener: Listener
        do {
            listener = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try Connection(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(backPressureStrategy: .init(lowWatermark: 2, highWatermark: 8))
                    )
                }
            }
            umask(previousMask)
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            umask(previousMask)
            throw ControlSocketError.alreadyListening(path: path)
        } catch {
            umask(previousMask)
            throw ControlSocketError.cannotBind(path: path, reason: "\(error)")
        }

        guard chmod(path, 0o600) == 0, let identity = UnixSocketPath.identity(of: path) else {
            let reason = UnixSocketPath.errorText(errno)
            try? await listener.channel.close().get()
            throw ControlSocketError.cannotBind(path: path, reason: reason)
        }
        return (listener, identity)
    }

    /// Removes a socket file nobody listens on; refuses to touch a live socket or another kind of file.
    private func replaceStaleSocketFile() throws(ControlSocketError) {
        guard let existing = UnixSocketPath.identity(of: path) else { return }
        guard existing.isSocket else { throw .notASocket(path: path) }
        switch UnixSocketPath.probe(path) {
        case .live:
            throw .alreadyListening(path: path)
        case .missing:
            return
        case .stale:
            if unlink(path) != 0 && errno != ENOENT {
                throw .cannotBind(path: path, reason: "cannot remove stale socket: \(UnixSocketPath.errorText(errno))")
            }
        case .failed(let code):
            throw .cannotBind(path: path, reason: "cannot check existing socket: \(UnixSocketPath.errorText(code))")
        }
    }

    /// Unlinks the socket file unless it was replaced meanwhile (then it belongs to someone else).
    private func removeSocketFile(ifStill identity: FileIdentity) {
        guard let current = UnixSocketPath.identity(of: path), current.sameFile(as: identity) else { return }
        unlink(path)
    }

    // MARK: - Connections

    private func serve(_ connection: Connection) async {
        let channel = connection.channel
        let client = InputClient.controlConnection(connections.wrappingAdd(1, ordering: .relaxed).newValue)
        do {
            try await connection.executeThenClose { inbound, _ in
                try await withThrowingDiscardingTaskGroup { streams in
                    defer { streams.cancelAll() }
                    var framer = LineFramer(maxLineBytes: maxLineBytes)
                    var lastWrite: EventLoopFuture<Void>?
                    var streaming = false
                    for try await chunk in inbound {
                        for line in framer.append(chunk.readableBytesView) {
                            if Task.isCancelled { return }
                            // Once streaming, reading only watches for the client leaving.
                            if streaming { continue }
                            switch await answer(line, of: client, on: channel) {
                            case .written(let write): lastWrite = write ?? lastWrite
                            case .stream(let lines):
                                streaming = true
                                streams.addTask { await self.relay(lines, to: channel) }
                            case .writtenWithUpdates(let write, let updates):
                                lastWrite = write ?? lastWrite
                                streams.addTask { await self.forward(updates, to: channel) }
                            }
                        }
                    }
                    // The client closed its side: a stream ends with it, and so do updates (leaving
                    // the group cancels them).
                    if streaming || Task.isCancelled { return }
                    // The last line may lack its newline; a stream asked for now would end at once.
                    for line in framer.finish() {
                        switch await answer(line, of: client, on: channel) {
                        case .written(let write?), .writtenWithUpdates(let write?, _): lastWrite = write
                        case .written(nil), .writtenWithUpdates(nil, _), .stream: break
                        }
                    }
                    if let lastWrite { await Self.awaitFlush(lastWrite, on: channel) }
                }
            }
        } catch {
            if !Task.isCancelled {
                logger.debug("control connection ended: \(error)")
            }
        }
        await clientLeft(client)
    }

    private enum Answer {
        /// The reply's write, if one was sent.
        case written(EventLoopFuture<Void>?)
        case stream(AsyncStream<String>)
        /// The reply's write, if one was sent, and the updates to forward after it.
        case writtenWithUpdates(EventLoopFuture<Void>?, AsyncStream<String>)
    }

    /// Runs the responder and sends its reply line if the client keeps up.
    private func answer(_ line: RawLine, of client: InputClient, on channel: any Channel) async -> Answer {
        switch await responder(line, client) {
        case .none: .written(nil)
        case .stream(let lines): .stream(lines)
        case .line(let reply): .written(sendIfReading(reply, on: channel))
        case .lineAndUpdates(let reply, let updates): .writtenWithUpdates(sendIfReading(reply, on: channel), updates)
        }
    }

    /// Sends `line` unless the client does not read: queuing more for it would grow without bound.
    private func sendIfReading(_ line: String, on channel: any Channel) -> EventLoopFuture<Void>? {
        guard channel.isWritable else {
            logger.debug("control client not reading: line dropped")
            return nil
        }
        return Self.send(Self.lineBuffer(line, on: channel), on: channel)
    }

    /// Sends each update as it comes, between the replies to the client's lines, until the
    /// updates end or the connection does (which cancels this task).
    private func forward(_ updates: AsyncStream<String>, to channel: any Channel) async {
        for await line in updates {
            _ = sendIfReading(line, on: channel)
        }
    }

    /// Sends each line of `lines` until it ends or the client falls behind, then closes the
    /// connection: that ends the read loop, which cancels this task and so ends the stream.
    private func relay(_ lines: AsyncStream<String>, to channel: any Channel) async {
        var disconnected = false
        for await line in lines where !disconnected {
            guard channel.isWritable else {
                logger.warning("control client not reading its stream: disconnected")
                disconnected = true
                channel.close(promise: nil)
                continue
            }
            _ = Self.send(Self.lineBuffer(line, on: channel), on: channel)
        }
        channel.close(promise: nil)
    }

    private static func lineBuffer(_ line: String, on channel: any Channel) -> ByteBuffer {
        var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }

    /// Queues `buffer` without waiting for it to be written (the async overload would wait).
    private static func send(_ buffer: ByteBuffer, on channel: any Channel) -> EventLoopFuture<Void> {
        let promise = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(buffer, promise: promise)
        return promise.futureResult
    }

    private func reject(_ connection: Connection) async {
        logger.warning("control socket: too many clients (\(maxClients)), connection refused")
        let channel = connection.channel
        do {
            try await connection.executeThenClose { _, _ in
                let write = Self.send(ByteBuffer(string: Self.tooManyClientsReply + "\n"), on: channel)
                await Self.awaitFlush(write, on: channel)
            }
        } catch {
            logger.debug("control connection ended: \(error)")
        }
    }

    /// Waits until `write` reached the kernel, so that closing does not discard it; a client
    /// that does not read for `flushGracePeriod`, or a shutdown, cuts the wait by closing.
    private static func awaitFlush(_ write: EventLoopFuture<Void>, on channel: any Channel) async {
        let deadline = channel.eventLoop.scheduleTask(in: flushGracePeriod) { channel.close(promise: nil) }
        await withTaskCancellationHandler {
            _ = try? await write.get()
        } onCancel: {
            channel.close(promise: nil)
        }
        deadline.cancel()
    }
}
