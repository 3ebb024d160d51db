/// A request the tracker decided: a heartbeat to the endpoint, or a start or stop to the
/// concurrency endpoint. Its outcome goes back to the tracker with the request.
package struct HeartbeatRequest: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case heartbeat(HeartbeatEvent)
        case concurrency(ConcurrencyBody.Event)
    }

    /// The largest answer read; a heartbeat's answer is a few small keys.
    package static let maxResponseBytes = 64 * 1024

    package var kind: Kind
    /// The playback it belongs to: an outcome that comes back after a newer `load` changes nothing.
    package var playback: Int
    package var url: String
    package var body: [UInt8]
    /// Sent as `X-Heartbeat-Token`; never logged.
    package var token: String?

    package init(kind: Kind, playback: Int, url: String, body: [UInt8], token: String?) {
        self.kind = kind
        self.playback = playback
        self.url = url
        self.body = body
        self.token = token
    }

    /// The event's name, for logs and status: `start`, `progress`..., `concurrency start`.
    package var eventName: String {
        switch kind {
        case .heartbeat(let event): event.rawValue
        case .concurrency(let event): "concurrency \(event.rawValue)"
        }
    }

    /// As the status shows it: the event and the URL without its query (which may carry secrets).
    package var summary: String {
        "\(eventName) \(url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url)"
    }

    /// The HTTP request: JSON, the token, and the configured extra headers (which cannot replace
    /// the first two).
    package func httpRequest(extraHeaders: [String: String]) -> HTTPClientRequest {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
        if let token { headers.append(("X-Heartbeat-Token", token)) }
        let reserved = Set(headers.map { $0.name.lowercased() })
        headers += extraHeaders.sorted { $0.key < $1.key }.filter { !reserved.contains($0.key.lowercased()) }.map { ($0.key, $0.value) }
        return HTTPClientRequest(method: .post, url: url, headers: headers, body: body, maxResponseBytes: Self.maxResponseBytes)
    }
}
