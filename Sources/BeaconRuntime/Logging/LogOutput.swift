import BeaconDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import NIOPosix
import Synchronization

/// Where log lines go: a bounded ``LogLineBuffer`` drained by a thread of its own, so writing a log
/// line never waits for stderr. A reader of stderr that stalls (a full pipe) blocks that thread
/// only; meanwhile lines that do not fit are dropped and counted, and one line says how many, where
/// they were, once writing works again.
///
/// Lines never interleave: only the writer thread writes, each line whole, in the order they came.
package final class LogOutput: Sendable {
    /// Bytes of lines held while stderr does not take them: a few thousand lines, and a bounded cost.
    package static let defaultCapacity = 256 << 10

    private struct State {
        var buffer: LogLineBuffer
        /// The writer holds a batch it has not written yet.
        var writing = false
        /// The writer sleeps on `wake`: the next line must signal it.
        var sleeping = false
    }

    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)
    private let writeBytes: @Sendable ([UInt8]) -> Bool
    private let droppedNotice: @Sendable (Int) -> [UInt8]
    private let thread = NIOThreadPool(numberOfThreads: 1)

    /// - Parameters:
    ///   - write: writes the bytes whole, blocking as long as it takes; false when they are lost (stderr closed).
    ///   - droppedNotice: the line that says this many lines were dropped.
    package init(
        capacity: Int = defaultCapacity,
        write: @escaping @Sendable ([UInt8]) -> Bool = LogOutput.writeToStandardError,
        droppedNotice: @escaping @Sendable (Int) -> [UInt8]
    ) {
        state = Mutex(State(buffer: LogLineBuffer(capacity: capacity)))
        self.writeBytes = write
        self.droppedNotice = droppedNotice
        thread.start()
        thread.submit { [self] _ in drain() }
    }

    /// Queues one whole line, newline included; never blocks on stderr.
    package func append(_ line: [UInt8]) {
        let signal = state.withLock { state in
            state.buffer.append(line)
            defer { state.sleeping = false }
            return state.sleeping
        }
        if signal { wake.signal() }
    }

    /// Lines dropped since the start: stderr did not take them in time, or was closed.
    package var droppedLines: Int {
        state.withLock { $0.buffer.droppedTotal }
    }

    /// Waits until every line queued so far is written, at most `timeout`; returns whether it was.
    @discardableResult
    package func flush(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !state.withLock({ $0.buffer.isEmpty && !$0.writing }) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// The writer thread: takes whatever is queued, writes it in one go, and sleeps when there is nothing.
    private func drain() {
        while true {
            let entries = state.withLock { state in
                let entries = state.buffer.takeAll()
                state.writing = !entries.isEmpty
                state.sleeping = entries.isEmpty
                return entries
            }
            guard !entries.isEmpty else {
                wake.wait()
                continue
            }
            var bytes: [UInt8] = []
            var lines = 0
            for entry in entries {
                switch entry {
                case .line(let line):
                    bytes += line
                    lines += 1
                case .dropped(let count):
                    bytes += droppedNotice(count)
                }
            }
            let written = writeBytes(bytes)
            state.withLock { state in
                if !written { state.buffer.lost(lines) }
                state.writing = false
            }
        }
    }

    /// Writes all of `bytes` to stderr, waiting while it is full; false when stderr is gone.
    package static let writeToStandardError: @Sendable ([UInt8]) -> Bool = { bytes in
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // A descriptor inherited in non-blocking mode: wait until it takes more.
                var ready = pollfd(fd: STDERR_FILENO, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
            } else {
                return false
            }
        }
        return true
    }
}

extension LogOutput {
    /// stderr, with its dropped-lines notice framed in `style`.
    package static func standardError(style: LineLogHandler.Style) -> LogOutput {
        LogOutput(droppedNotice: { LineLogHandler.droppedLinesNotice(count: $0, style: style) })
    }
}
