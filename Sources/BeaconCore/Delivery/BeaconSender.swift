/// Requests every signaling URL of a fired tracking event, concurrently.
public struct BeaconSender: Sendable {
    public var client: any HTTPClient
    /// Compute everything, send nothing.
    public var quiet: Bool

    public init(client: any HTTPClient, quiet: Bool) {
        self.client = client
        self.quiet = quiet
    }

    /// What became of one signaling URL.
    public struct Result: Sendable, Equatable {
        public enum Outcome: Sendable, Equatable {
            /// The server answered with this HTTP status.
            case answered(status: Int)
            /// No HTTP answer: connection, timeout or redirect trouble.
            case failed(String)
            /// Never requested: the URL is not one we may send to.
            case refused(String)
            /// Never requested: the daemon is quiet.
            case notSent
        }

        public var url: String
        public var outcome: Outcome
        public var latencyMilliseconds: Int64

        /// Whether this URL counts as reported.
        public var isSuccess: Bool {
            switch outcome {
            case .answered(let status): (200..<300).contains(status)
            case .notSent: true
            case .failed, .refused: false
            }
        }
    }

    public func send(_ firing: Firing) async -> [Result] {
        await withTaskGroup(of: (Int, Result).self) { group in
            for (index, url) in firing.signalingUrls.enumerated() {
                group.addTask { (index, await send(url)) }
            }
            var results = [Result?](repeating: nil, count: firing.signalingUrls.count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    }

    private func send(_ url: String) async -> Result {
        if let reason = URLPolicy.refusal(of: url) {
            return Result(url: url, outcome: .refused(reason), latencyMilliseconds: 0)
        }
        if quiet { return Result(url: url, outcome: .notSent, latencyMilliseconds: 0) }
        do {
            let response = try await client.send(HTTPClientRequest(url: url, maxResponseBytes: 0))
            return Result(url: url, outcome: .answered(status: response.status), latencyMilliseconds: response.latencyMilliseconds)
        } catch {
            return Result(url: url, outcome: .failed(error.description), latencyMilliseconds: 0)
        }
    }
}
