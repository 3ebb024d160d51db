import BeaconDomain
import Synchronization

/// An `HTTPClient` on libcurl's multi interface.
///
/// One dedicated thread owns the libcurl multi handle and drives every transfer, so
/// connections are cached and reused across requests. Callers hand a transfer to that
/// thread and await its result; cancelling the awaiting task removes the transfer.
///
/// Policy: only `http` and `https`, for the request and for every redirect; at most
/// ``Configuration/maxRedirects`` redirects; connect and total timeouts; a cap on the
/// kept response body (see ``HTTPClientRequest/maxResponseBytes``).
///
/// Call ``shutdown()`` when done; dropping the last reference also stops the thread,
/// without waiting for it.
package final class CurlHTTPClient: HTTPClient, Sendable {
    /// Limits and identity applied to every request this client sends.
    package struct Configuration: Sendable, Equatable {
        /// Longest wait for a TCP (and TLS) connection to be established.
        package var connectTimeout: Duration
        /// Longest time for a whole request, redirects included, from when it is handed to libcurl:
        /// time waiting for one of the host's connections does not count.
        package var totalTimeout: Duration
        /// Redirects followed before the request fails with `.tooManyRedirects`.
        package var maxRedirects: Int
        /// Connections open at once to one host; further transfers queue for one.
        package var maxConnectionsPerHost: Int
        /// Connections open at once in total; also the size of the connection cache. Below
        /// hosts × per-host limit, a burst to many hosts closes idle connections to open others.
        package var maxTotalConnections: Int
        /// The `User-Agent` header, e.g. `beaconctl/1.0`; `nil` sends none.
        package var userAgent: String?

        /// Connections to one host by default; the daemon keeps as many beacon requests in flight to a host.
        package static let defaultMaxConnectionsPerHost = HostConnections.perHost

        /// Defaults: 5 s to connect, 10 s in total, 5 redirects, 6 connections per host, 128 in all
        /// (6 to each of 20 ad and verification hosts at once).
        package init(
            connectTimeout: Duration = .seconds(5),
            totalTimeout: Duration = .seconds(10),
            maxRedirects: Int = 5,
            maxConnectionsPerHost: Int = defaultMaxConnectionsPerHost,
            maxTotalConnections: Int = 128,
            userAgent: String? = "beaconctl"
        ) {
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maxRedirects = maxRedirects
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxTotalConnections = maxTotalConnections
            self.userAgent = userAgent
        }
    }

    /// The settings this client was created with.
    package let configuration: Configuration
    private let loop: CurlMultiLoop

    /// Starts the transfer thread. If libcurl cannot be set up, every request fails
    /// with `.connectionFailed` rather than the initializer trapping or throwing.
    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.loop = CurlMultiLoop(configuration: configuration)
    }

    /// Shorthand for the common settings.
    package convenience init(
        connectTimeout: Duration = .seconds(5),
        totalTimeout: Duration = .seconds(10),
        userAgent: String? = "beaconctl"
    ) {
        self.init(
            configuration: Configuration(
                connectTimeout: connectTimeout, totalTimeout: totalTimeout, userAgent: userAgent))
    }

    deinit {
        // The thread holds its own reference to the loop; tell it to end.
        loop.requestStop()
    }

    /// Sends one request and returns the last response after redirects.
    ///
    /// Any HTTP status is a response, not an error. Throws `.cancelled` if the calling
    /// task is cancelled or the client is shut down before the response is complete.
    package func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        let outcome = Mutex<Result<HTTPClientResponse, HTTPClientError>>(.failure(.cancelled))
        await send([request]) { _, result in outcome.withLock { $0 = result } }
        return try outcome.withLock { $0 }.get()
    }

    /// Hands every request to the transfer thread in one move; `report` runs on that thread.
    ///
    /// Each response or error is what ``send(_:)`` would give for the request alone.
    package func send(
        _ requests: [HTTPClientRequest],
        reporting report: @escaping @Sendable (Int, Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) async {
        guard !requests.isEmpty else { return }
        let ids = loop.makeTransferIDs(count: requests.count)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (allReported: CheckedContinuation<Void, Never>) in
                let pending = Countdown(requests.count, then: allReported)
                var submissions: [CurlMultiLoop.Submission] = []
                submissions.reserveCapacity(requests.count)
                for (index, request) in requests.enumerated() {
                    let complete: CurlMultiLoop.Completion = { result in
                        report(index, result)
                        pending.countDown()
                    }
                    // Checked here as well as by curl, so a bad scheme never reaches the network code.
                    if let refusal = Self.refusal(of: request.url) {
                        complete(.failure(refusal))
                    } else {
                        submissions.append(.init(id: ids.lowerBound + UInt64(index), request: request, complete: complete))
                    }
                }
                loop.submit(submissions)
            }
        } onCancel: {
            loop.cancel(ids: ids)
        }
    }

    private static func refusal(of url: String) -> HTTPClientError? {
        guard let scheme = URLPolicy.scheme(of: url) else { return .invalidURL(redacted(url)) }
        return URLPolicy.allowedSchemes.contains(scheme) ? nil : .unsupportedScheme(scheme)
    }

    /// Fails pending requests with `.cancelled`, closes all connections and waits for
    /// the transfer thread to end. Requests sent afterwards fail with `.cancelled`.
    package func shutdown() async {
        await loop.stop()
    }

    /// The URL without query and fragment, for error text: query strings may carry tokens.
    static func redacted(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}

/// Resumes a continuation once it has been counted down to zero, from any thread.
private final class Countdown: Sendable {
    private let remaining: Atomic<Int>
    private let then: CheckedContinuation<Void, Never>

    init(_ count: Int, then: CheckedContinuation<Void, Never>) {
        self.remaining = Atomic(count)
        self.then = then
    }

    func countDown() {
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { then.resume() }
    }
}
