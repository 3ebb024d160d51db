/// Requests one signaling URL and says what became of it.
public struct BeaconSender: Sendable {
    public var client: any HTTPClient
    /// Compute everything, send nothing.
    public var quiet: Bool

    public init(client: any HTTPClient, quiet: Bool) {
        self.client = client
        self.quiet = quiet
    }

    /// What became of one request of a signaling URL.
    public struct Result: Sendable, Equatable {
        public enum Outcome: Sendable, Equatable {
            /// The server answered with this HTTP status.
            case answered(status: Int)
            /// No HTTP answer: connection, timeout or redirect trouble.
            case failed(HTTPClientError)
            /// Never requested: the URL is not one we may send to.
            case refused(String)
            /// Never requested: the daemon is quiet.
            case notSent
        }

        public var url: String
        public var outcome: Outcome
        public var latencyMilliseconds: Int64
        /// The answer's `Retry-After` header, as sent.
        public var retryAfter: String?

        public init(url: String, outcome: Outcome, latencyMilliseconds: Int64, retryAfter: String? = nil) {
            self.url = url
            self.outcome = outcome
            self.latencyMilliseconds = latencyMilliseconds
            self.retryAfter = retryAfter
        }

        /// Whether this URL counts as reported.
        public var isSuccess: Bool {
            switch outcome {
            case .answered(let status): HTTPStatus.isSuccess(status)
            case .notSent: true
            case .failed, .refused: false
            }
        }
    }

    /// Requests every signaling URL at once; `report` hears what became of each, by its index in
    /// `urls`, as soon as it is known (see ``HTTPClient/send(_:reporting:)``).
    public func send(_ urls: [String], reporting report: @escaping @Sendable (Int, Result) -> Void) async {
        var allowed: [(index: Int, url: String)] = []
        for (index, url) in urls.enumerated() {
            if let reason = URLPolicy.refusal(of: url) {
                report(index, Result(url: url, outcome: .refused(reason), latencyMilliseconds: 0))
            } else if quiet {
                report(index, Result(url: url, outcome: .notSent, latencyMilliseconds: 0))
            } else {
                allowed.append((index, url))
            }
        }
        guard !allowed.isEmpty else { return }
        let requested = allowed
        await client.send(requested.map { HTTPClientRequest(url: $0.url, maxResponseBytes: 0) }) { position, answer in
            let (index, url) = requested[position]
            switch answer {
            case .success(let response):
                report(index, Result(
                    url: url, outcome: .answered(status: response.status), latencyMilliseconds: response.latencyMilliseconds,
                    retryAfter: response.retryAfter))
            case .failure(let error):
                report(index, Result(url: url, outcome: .failed(error), latencyMilliseconds: 0))
            }
        }
    }
}
