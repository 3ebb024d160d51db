import BeaconDomain
import BeaconRuntime
import Synchronization

/// Answers that simulate slow or silent servers, for the demo's ad service and tests.
extension HTTPServer.Response {
    /// Waits `delay`, then answers with `response`; returns early if the server stops.
    package static func delayed(_ delay: Duration, _ response: Self) async -> Self {
        try? await Task.sleep(for: delay)
        return response
    }

    /// Never answers: suspends until the server stops, which cancels the handler.
    /// The connection stays open meanwhile and nothing is written to it.
    package static func noAnswer() async -> Self {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        return .status(503)
    }

    /// Sends `body` one byte every `interval`: a server that drips its answer. The stream ends
    /// when the server stops or the client goes away.
    package static func drip(_ body: [UInt8], every interval: Duration, status: Int = 200) -> Self {
        let queue = ByteQueue(body)
        return Self(status: status, bodyStream: AsyncThrowingStream {
            try await Task.sleep(for: interval)
            return queue.take(upTo: 1)
        })
    }

    /// Sends `chunk` over and over, never ending: a body no cap-less client could read whole.
    package static func endless(_ chunk: [UInt8], status: Int = 200) -> Self {
        Self(status: status, bodyStream: AsyncThrowingStream {
            try Task.checkCancellation()
            return chunk
        })
    }

    /// Sends the first `count` bytes of `body`, then drops the connection before the response is complete.
    package static func cutOff(_ body: [UInt8], after count: Int, status: Int = 200) -> Self {
        let queue = ByteQueue(Array(body.prefix(count)))
        return Self(status: status, bodyStream: AsyncThrowingStream {
            guard let part = queue.take(upTo: count) else { throw DroppedConnection() }
            return part
        })
    }
}

/// Why a simulated body ends without its end: the server drops the connection.
private struct DroppedConnection: Error {}

/// Bytes handed out in order to a stream's producer.
private final class ByteQueue: Sendable {
    private let bytes: Mutex<ArraySlice<UInt8>>

    init(_ bytes: [UInt8]) {
        self.bytes = Mutex(bytes[...])
    }

    /// The next bytes, at most `count`; nil once every byte was taken.
    func take(upTo count: Int) -> [UInt8]? {
        bytes.withLock { bytes in
            guard !bytes.isEmpty else { return nil }
            defer { bytes = bytes.dropFirst(count) }
            return Array(bytes.prefix(count))
        }
    }
}
