import BeaconDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOPosix

/// Reads lines from a file descriptor (standard input by default): a pipe, a regular file or a tty.
///
/// The blocking `read(2)` runs on a dedicated thread, never on Swift's cooperative pool, and
/// the next chunk is read only after every line of the previous one has been handled, so a
/// slow handler slows the reader down instead of growing a buffer.
package struct StandardInputLines: Sendable {
    /// The descriptor read from; it is not closed by the reader.
    package let fileDescriptor: Int32
    /// The largest line accepted, in bytes, without its terminator.
    package let maxLineBytes: Int
    private let chunkSize = 64 * 1024

    package init(fileDescriptor: Int32 = STDIN_FILENO, maxLineBytes: Int = LineFramer.defaultMaxLineBytes) {
        self.fileDescriptor = fileDescriptor
        self.maxLineBytes = maxLineBytes
    }

    /// Passes each line to `handler`, in order, awaiting it before the next line; returns at end of input.
    ///
    /// A last line without a newline is delivered too. Throws `CancellationError` when the
    /// calling task is cancelled, even while blocked in `read(2)` on a pipe or tty, and
    /// ``StandardInputError`` when reading fails.
    package func run(_ handler: @Sendable (RawLine) async -> Void) async throws {
        let wake = try WakePipe()
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let result: Result<Void, any Error>
        do {
            try await withTaskCancellationHandler {
                try await readLoop(pool: pool, wake: wake, handler)
            } onCancel: {
                wake.signal()
            }
            result = .success(())
        } catch {
            result = .failure(error)
        }
        // The pool thread has returned from its last read by now; closing the pipe is safe.
        try? await pool.shutdownGracefully()
        wake.closeBoth()
        try result.get()
    }

    private func readLoop(
        pool: NIOThreadPool,
        wake: WakePipe,
        _ handler: @Sendable (RawLine) async -> Void
    ) async throws {
        var framer = LineFramer(maxLineBytes: maxLineBytes)
        let fd = fileDescriptor
        let size = chunkSize
        while true {
            let chunk = try await pool.runIfActive { try Self.readChunk(fd: fd, wake: wake, size: size) }
            guard let chunk else { break }
            for line in framer.append(chunk) {
                try Task.checkCancellation()
                await handler(line)
            }
        }
        for line in framer.finish() {
            try Task.checkCancellation()
            await handler(line)
        }
    }

    /// Blocks until data, end of input (nil) or a wake-up (cancellation).
    private static func readChunk(fd: Int32, wake: WakePipe, size: Int) throws -> [UInt8]? {
        // poll first so that cancellation can interrupt a read that would block forever;
        // it also copes with a descriptor inherited in non-blocking mode.
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw StandardInputError.readFailed(errno: errno)
            }
            if fds[1].revents != 0 { throw CancellationError() }
            if fds[0].revents & Int16(POLLNVAL) != 0 { throw StandardInputError.readFailed(errno: EBADF) }
            if fds[0].revents == 0 { continue }

            var buffer = [UInt8](repeating: 0, count: size)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.removeSubrange(count...)
                return buffer
            }
            if count == 0 { return nil }
            if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
            throw StandardInputError.readFailed(errno: errno)
        }
    }
}

/// Why reading the input failed.
package enum StandardInputError: Error, Sendable, Equatable, CustomStringConvertible {
    case readFailed(errno: Int32)

    package var description: String {
        switch self {
        case .readFailed(let code): "reading input failed: \(String(cString: strerror(code)))"
        }
    }
}

/// A self-pipe that wakes a thread blocked in `poll(2)`.
private final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw StandardInputError.readFailed(errno: errno) }
        readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
    }

    /// Makes the read end readable for good; never blocks.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    func closeBoth() {
        _ = close(readEnd)
        _ = close(writeEnd)
    }
}
