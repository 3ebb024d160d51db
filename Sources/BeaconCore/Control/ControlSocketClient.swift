#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOPosix

/// One request to a running daemon's control socket: used by `beaconctl status` and tests.
public enum ControlSocketClient {
    /// Connects to `path`, sends `line` (which must not contain a newline), returns the first
    /// reply line (without its terminator) and closes.
    ///
    /// - Throws: ``ControlSocketClientError``: `noDaemon` when the socket file is missing or
    ///   nothing listens on it, `timedOut` when no reply came within `timeout`,
    ///   `closedWithoutReply`, `unreadableReply`, `connectionFailed`.
    public static func request(
        path: String,
        line: String,
        timeout: Duration,
        maxReplyBytes: Int = LineFramer.defaultMaxLineBytes,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> String {
        guard path.utf8.count <= UnixSocketPath.maxPathBytes else {
            throw ControlSocketClientError.connectionFailed(
                "socket path longer than \(UnixSocketPath.maxPathBytes) bytes: \(path)"
            )
        }
        return try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask {
                try await exchange(path: path, line: line, maxReplyBytes: maxReplyBytes, group: eventLoopGroup)
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw ControlSocketClientError.timedOut
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    private static func exchange(
        path: String,
        line: String,
        maxReplyBytes: Int,
        group: any EventLoopGroup
    ) async throws -> String {
        let connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            connection = try await ClientBootstrap(group: group)
                // Keep reading after our own shutdown and the server's EOF alike.
                .channelOption(.allowRemoteHalfClosure, value: true)
                .connect(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                            wrappingChannelSynchronously: channel,
                            configuration: .init(isOutboundHalfClosureEnabled: true))
                    }
                }
        } catch let error as IOError where [ENOENT, ECONNREFUSED, ENOTSOCK].contains(error.errnoCode) {
            throw ControlSocketClientError.noDaemon(path: path)
        } catch {
            throw ControlSocketClientError.connectionFailed("\(error)")
        }

        return try await connection.executeThenClose { inbound, outbound in
            do {
                try await outbound.write(ByteBuffer(string: line + "\n"))
                // Half-close: the daemon answers what it has, then closes, so a line without reply ends promptly.
                outbound.finish()
            } catch {
                throw ControlSocketClientError.closedWithoutReply
            }
            var framer = LineFramer(maxLineBytes: maxReplyBytes)
            do {
                for try await chunk in inbound {
                    if let reply = framer.append(chunk.readableBytesView).first { return try text(of: reply) }
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // A reset after the server closed is the same, to the caller, as a plain close.
                throw ControlSocketClientError.closedWithoutReply
            }
            if let reply = framer.finish().first { return try text(of: reply) }
            throw ControlSocketClientError.closedWithoutReply
        }
    }

    private static func text(of reply: RawLine) throws -> String {
        switch reply {
        case .text(let text): text
        case .unreadable(let why): throw ControlSocketClientError.unreadableReply(why)
        }
    }
}

/// Why a control socket request got no reply.
public enum ControlSocketClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The socket file is missing or nothing accepts connections on it.
    case noDaemon(path: String)
    case timedOut
    /// The daemon closed the connection before a full reply line.
    case closedWithoutReply
    case unreadableReply(LineRejection)
    case connectionFailed(String)

    public var description: String {
        switch self {
        case .noDaemon(let path): "no beaconctl daemon is listening on \(path)"
        case .timedOut: "the daemon did not reply in time"
        case .closedWithoutReply: "the daemon closed the connection without replying"
        case .unreadableReply(let why): "unreadable reply: \(why)"
        case .connectionFailed(let reason): "cannot connect to the daemon: \(reason)"
        }
    }
}
