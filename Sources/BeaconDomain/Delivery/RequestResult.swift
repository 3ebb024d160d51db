/// What became of one request of a signaling URL: the value the sender produces and every
/// delivery decision reads.
package struct RequestResult: Sendable, Equatable {
    package enum Outcome: Sendable, Equatable {
        /// The server answered with this HTTP status.
        case answered(status: Int)
        /// No HTTP answer: connection, timeout or redirect trouble.
        case failed(HTTPClientError)
        /// Never requested: the URL is not one we may send to.
        case refused(String)
        /// Never requested: the daemon is quiet, or the `beacons` reporter disabled.
        case notSent(NotSent)
    }

    /// Why a request was computed and not sent.
    package enum NotSent: Sendable, Equatable {
        case quiet
        case beaconsDisabled
    }

    package var url: String
    package var outcome: Outcome
    package var latencyMilliseconds: Int64
    /// The answer's `Retry-After` header, as sent.
    package var retryAfter: String?

    package init(url: String, outcome: Outcome, latencyMilliseconds: Int64, retryAfter: String? = nil) {
        self.url = url
        self.outcome = outcome
        self.latencyMilliseconds = latencyMilliseconds
        self.retryAfter = retryAfter
    }

    /// Whether this URL counts as reported.
    package var isSuccess: Bool {
        switch outcome {
        case .answered(let status): HTTPStatus.isSuccess(status)
        case .notSent: true
        case .failed, .refused: false
        }
    }
}
