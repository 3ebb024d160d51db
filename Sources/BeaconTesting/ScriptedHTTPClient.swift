import Synchronization
import BeaconDomain
import BeaconRuntime

/// An `HTTPClient` that answers each URL from a script, one answer per request in order; the last
/// answer repeats. A held answer waits until `release()`. Every request is appended to `requests`
/// and `sent` (and to `log`, when given, to order it against other doubles).
package final class ScriptedHTTPClient: HTTPClient {
    package enum Answer: Sendable {
        case status(Int)
        /// This status with a `Retry-After` header.
        case retryAfter(Int, String)
        case body([UInt8])
        case error(HTTPClientError)
        /// This status once `release()` was called.
        case held(Int)
        /// This status with a `Location` header.
        case located(Int, String)
    }

    private let script: Mutex<[String: [Answer]]>
    private let gate = Wakeup()
    private let log: Recorder<String>?
    package let requests = Recorder<String>()
    /// Every request whole (method, headers, body), in order.
    package let sent = Recorder<HTTPClientRequest>()

    package init(_ script: [String: [Answer]], log: Recorder<String>? = nil) {
        self.script = Mutex(script)
        self.log = log
    }

    /// Lets one held answer go.
    package func release() { gate.signal() }

    package func requestCount(_ url: String) -> Int { requests.all.filter { $0 == url }.count }

    package func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        requests.append(request.url)
        sent.append(request)
        log?.append("request \(request.url)")
        let answer = script.withLock { script -> Answer in
            guard var answers = script[request.url], let first = answers.first else { return .status(404) }
            if answers.count > 1 { answers.removeFirst() }
            script[request.url] = answers
            return first
        }
        switch answer {
        case .status(let status):
            return HTTPClientResponse(status: status, finalURL: request.url, body: [], latencyMilliseconds: 1)
        case .retryAfter(let status, let value):
            return HTTPClientResponse(status: status, finalURL: request.url, body: [], latencyMilliseconds: 1, retryAfter: value)
        case .body(let body):
            return HTTPClientResponse(status: 200, finalURL: request.url, body: body, latencyMilliseconds: 1)
        case .located(let status, let location):
            return HTTPClientResponse(status: status, finalURL: request.url, body: [], latencyMilliseconds: 1, location: location)
        case .error(let error):
            throw error
        case .held(let status):
            await gate.wait()
            if Task.isCancelled { throw .cancelled }
            return HTTPClientResponse(status: status, finalURL: request.url, body: [], latencyMilliseconds: 1)
        }
    }
}
