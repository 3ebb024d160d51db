/// One outbound HTTP request: a session init, a metadata fetch or a signaling URL.
package struct HTTPClientRequest: Sendable, Equatable {
    package enum Method: String, Sendable, Equatable {
        case get = "GET"
        case post = "POST"
    }

    package var method: Method
    package var url: String
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// The largest response body kept; 0 discards the body (beacons), a larger body aborts the transfer.
    package var maxResponseBytes: Int

    package init(
        method: Method = .get,
        url: String,
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = [],
        maxResponseBytes: Int
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maxResponseBytes = maxResponseBytes
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body
            && lhs.maxResponseBytes == rhs.maxResponseBytes
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// What came back: the status of the last response after redirects, and where it came from.
package struct HTTPClientResponse: Sendable, Equatable {
    package var status: Int
    /// The URL of the last response, after redirects.
    package var finalURL: String
    package var body: [UInt8]
    /// Wall time from the start of the request to the end of the response, in milliseconds.
    package var latencyMilliseconds: Int64
    /// The last response's `Retry-After` header as sent (see ``RetryAfter``), nil when it had none.
    package var retryAfter: String?
    /// The last response's `Location` header as sent (the Media Collection API's session), nil when it had none.
    package var location: String?

    package init(
        status: Int, finalURL: String, body: [UInt8], latencyMilliseconds: Int64, retryAfter: String? = nil, location: String? = nil
    ) {
        self.status = status
        self.finalURL = finalURL
        self.body = body
        self.latencyMilliseconds = latencyMilliseconds
        self.retryAfter = retryAfter
        self.location = location
    }

    package var isSuccess: Bool { HTTPStatus.isSuccess(status) }

    /// What the answer asks with `Retry-After`, by the one rule of ``HTTPStatus/requestedWait(status:retryAfter:wallNow:)``.
    package func requestedWait(wallNow: Milliseconds) -> Milliseconds? {
        HTTPStatus.requestedWait(status: status, retryAfter: retryAfter, wallNow: wallNow)
    }
}

/// Why a request got no HTTP response.
package enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL, or a redirect target, is not http or https.
    case unsupportedScheme(String)
    case invalidURL(String)
    /// The request was sent and no whole answer came back within the total timeout.
    case timedOut
    /// No connection to the URL's host within the connect timeout: the request never left.
    case connectTimedOut
    case tooManyRedirects
    case responseTooLarge(limit: Int)
    /// The URL's host could not be reached (DNS, refused, TLS), or dropped the connection before
    /// any answer.
    case connectionFailed(String)
    /// The transfer broke after the URL's host had answered: a body cut off, or a redirect target
    /// that could not be reached.
    case transferFailed(String)
    case cancelled

    package var description: String {
        switch self {
        case .unsupportedScheme(let scheme): "unsupported scheme '\(scheme)' (only http and https)"
        case .invalidURL(let url): "invalid URL '\(url)'"
        case .timedOut: "timed out"
        case .connectTimedOut: "connect timed out"
        case .tooManyRedirects: "too many redirects"
        case .responseTooLarge(let limit): "response larger than \(limit) bytes"
        case .connectionFailed(let reason): "connection failed: \(reason)"
        case .transferFailed(let reason): "transfer failed after the host answered: \(reason)"
        case .cancelled: "cancelled"
        }
    }

    /// Whether the failure says the URL's host itself cannot be reached now, rather than something
    /// about this one URL: only then is the host's other traffic held back.
    package var isHostUnreachable: Bool {
        switch self {
        case .connectTimedOut, .connectionFailed: true
        case .unsupportedScheme, .invalidURL, .timedOut, .tooManyRedirects, .responseTooLarge, .transferFailed, .cancelled: false
        }
    }
}

/// The one door to the network. The daemon only knows this protocol; libcurl sits behind it.
package protocol HTTPClient: Sendable {
    func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse

    /// Sends every request at once and tells `report` what became of each, by its index in
    /// `requests`, as soon as it is known and in no set order; returns once all are reported.
    ///
    /// `report` may be called from any thread, and calls may overlap: keep it short and thread-safe.
    /// Cancelling the calling task reports the requests still pending as `.cancelled`.
    func send(
        _ requests: [HTTPClientRequest],
        reporting report: @escaping @Sendable (Int, Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) async
}

/// How many connections a client keeps to one host: six, as browsers do. The delivery queue lets
/// as many beacon requests be in flight to a host, so that each one journaled in flight is on the wire.
package enum HostConnections {
    package static let perHost = 6
}
