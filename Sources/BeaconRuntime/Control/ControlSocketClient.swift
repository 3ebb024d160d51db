import BeaconDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOPosix

/// Requests to a running daemon's control socket: one line and its reply (`beaconctl status`),
/// or one line and every line the daemon streams back (`beaconctl events --follow`).
package enum ControlSocketClient {
    /// The longest reply line `request` reads by default. A status lists every ad break retained
    /// with its signaling URLs: megabytes for a long live window, far past an input line's limit.
    /// The peer is the user's own daemon, so the bound guards against a runaway, not an attacker.
    package static let defaultMaxReplyBytes = 16 << 20

    /// Connects to `path`, sends `line` (which must not contain a newline), returns the first
    /// reply line (without its terminator) and closes.
    ///
    /// - Throws: ``ControlSocketClientError``: `noDaemon` when the socket file is missing or
    ///   nothing listens on it, `timedOut` when no reply came within `timeout`,
    ///   `closedWithoutReply`, `unreadableReply`, `connectionFailed`.
    package static func request(
        path: String,
        line: String,
        timeout: Duration,
        maxReplyBytes: Int = defaultMaxReplyBytes,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> String {
        let time = TimeSource.system
        let reply = await withDeadline(time.now() + timeout.milliseconds, on: time) { () -> Result<String, any Error> in
            do {
                return .success(try await exchange(path: path, line: line, maxReplyBytes: maxReplyBytes, group: eventLoopGroup))
            } catch {
                return .failure(error)
            }
        }
        guard let reply else {
            try Task.checkCancellation()
            throw ControlSocketClientError.timedOut
        }
        return try reply.get()
    }

    /// Connects to `path`, sends `line`, keeps its side open and calls `receive` with each line
    /// the daemon sends (without its terminator), until the daemon closes the connection.
    ///
    /// - Throws: ``ControlSocketClientError``: `noDaemon`, `connectionFailed`,
    ///   `unreadableReply` for a line over `maxLineBytes` or not UTF-8; what `receive` throws.
    package static func follow(
        path: String,
        line: String,
        maxLineBytes: Int = LineFramer.defaultMaxLineBytes,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        receive: (String) async throws -> Void
    ) async throws {
        let connection = try await connect(path: path, group: eventLoopGroup)
        try await connection.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: line + "\n"))
            var framer = LineFramer(maxLineBytes: maxLineBytes)
            do {
                for try await chunk in inbound {
                    for received in framer.append(chunk.readableBytesView) { try await receive(try text(of: received)) }
                }
            } catch let error as IOError where error.errnoCode == ECONNRESET {
                // The daemon went away: for a follower that is the end of the stream.
            }
            for received in framer.finish() { try await receive(try text(of: received)) }
        }
    }

    private static func connect(path: String, group: any EventLoopGroup) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        guard path.utf8.count <= UnixSocketPath.maxPathBytes else {
            throw ControlSocketClientError.connectionFailed(
                "socket path longer than \(UnixSocketPath.maxPathBytes) bytes: \(path)"
            )
        }
        do {
            return try await ClientBootstrap(group: group)
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
    }

    private static func exchange(
        path: String,
        line: String,
        maxReplyBytes: Int,
        group: any EventLoopGroup
    ) async throws -> String {
        let connection = try await connect(path: path, group: group)
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
package enum ControlSocketClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The socket file is missing or nothing accepts connections on it.
    case noDaemon(path: String)
    case timedOut
    /// The daemon closed the connection before a full reply line.
    case closedWithoutReply
    case unreadableReply(LineRejection)
    case connectionFailed(String)

    package var description: String {
        switch self {
        case .noDaemon(let path): "no beaconctl daemon is listening on \(path)"
        case .timedOut: "the daemon did not reply in time"
        case .closedWithoutReply: "the daemon closed the connection without replying"
        case .unreadableReply(let why): "unreadable reply: \(why)"
        case .connectionFailed(let reason): "cannot connect to the daemon: \(reason)"
        }
    }
}
