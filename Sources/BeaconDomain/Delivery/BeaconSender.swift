/// Requests one signaling URL and says what became of it.
package struct BeaconSender: Sendable {
    package var client: any HTTPClient
    /// Compute everything, send nothing.
    package var quiet: Bool
    /// The `beacons` reporter is disabled: as quiet, and said so.
    package var beaconsDisabled = false

    package init(client: any HTTPClient, quiet: Bool) {
        self.client = client
        self.quiet = quiet
    }

    /// Requests every signaling URL at once; `report` hears what became of each, by its index in
    /// `urls`, as soon as it is known (see ``HTTPClient/send(_:reporting:)``).
    package func send(_ urls: [String], reporting report: @escaping @Sendable (Int, RequestResult) -> Void) async {
        var allowed: [(index: Int, url: String)] = []
        for (index, url) in urls.enumerated() {
            if let reason = URLPolicy.refusal(of: url) {
                report(index, RequestResult(url: url, outcome: .refused(reason), latencyMilliseconds: 0))
            } else if quiet || beaconsDisabled {
                report(index, RequestResult(url: url, outcome: .notSent(beaconsDisabled ? .beaconsDisabled : .quiet), latencyMilliseconds: 0))
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
                report(index, RequestResult(
                    url: url, outcome: .answered(status: response.status), latencyMilliseconds: response.latencyMilliseconds,
                    retryAfter: response.retryAfter))
            case .failure(let error):
                report(index, RequestResult(url: url, outcome: .failed(error), latencyMilliseconds: 0))
            }
        }
    }
}
