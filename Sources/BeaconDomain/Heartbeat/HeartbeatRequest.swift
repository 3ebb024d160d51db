/// A request the tracker decided: a heartbeat to the endpoint, or a start or stop to the
/// concurrency endpoint. Its outcome goes back to the tracker with the request.
package struct HeartbeatRequest: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case heartbeat(HeartbeatEvent)
        case concurrency(ConcurrencyBody.Event)
    }

    /// The headers the request writes itself, lower case: extra headers cannot replace them.
    package static let reservedHeaders: Set<String> = ["content-type", "content-length", "host", "x-heartbeat-token"]

    /// The largest answer read; a heartbeat's answer is a few small keys.
    package static let maxResponseBytes = 64 * 1024

    package var kind: Kind
    /// The playback it belongs to: an outcome that comes back after a newer `load` changes nothing.
    package var playback: Int
    package var url: String
    package var body: [UInt8]
    /// Sent as `X-Heartbeat-Token`; never logged.
    package var token: String?
    /// The playback's own extra headers (`heartbeatHeaders`); never logged.
    package var playbackHeaders: [String: String]

    package init(kind: Kind, playback: Int, url: String, body: [UInt8], token: String?, playbackHeaders: [String: String] = [:]) {
        self.kind = kind
        self.playback = playback
        self.url = url
        self.body = body
        self.token = token
        self.playbackHeaders = playbackHeaders
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

    /// The HTTP request: JSON, the token, and the extra headers, configured ones and the
    /// playback's (which win for the same name); neither can replace the first two.
    package func httpRequest(extraHeaders: [String: String]) -> HTTPClientRequest {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
        if let token { headers.append(("X-Heartbeat-Token", token)) }
        headers += ExtraHeaders.merged(extraHeaders, with: playbackHeaders).sorted { $0.key < $1.key }
            .filter { !Self.reservedHeaders.contains($0.key.lowercased()) }.map { ($0.key, $0.value) }
        return HTTPClientRequest(method: .post, url: url, headers: headers, body: body, maxResponseBytes: Self.maxResponseBytes)
    }
}
