/// One request to the Media Collection API: a `sessionStart` to `{endpoint}/api/v1/sessions`, or an
/// event of an open session to `{endpoint}/api/v1/sessions/{sid}/events`.
package struct MediaCollectionRequest: Sendable, Equatable {
    package var emission: MediaCollectionEmission
    /// The back end's session id; nil for a `sessionStart`.
    package var sessionID: String?

    package init(emission: MediaCollectionEmission, sessionID: String?) {
        self.emission = emission
        self.sessionID = sessionID
    }

    package var event: MediaCollectionEvent { emission.event }

    /// The largest answer read: the back end answers with headers and an empty body.
    package static let maxResponseBytes = 16 * 1024

    package func url(endpoint: String) -> String {
        var base = endpoint
        while base.hasSuffix("/") { base.removeLast() }
        guard let sessionID else { return base + "/api/v1/sessions" }
        return base + "/api/v1/sessions/\(sessionID)/events"
    }

    package func httpRequest(endpoint: String) -> HTTPClientRequest {
        HTTPClientRequest(
            method: .post, url: url(endpoint: endpoint), headers: [(name: "Content-Type", value: "application/json")],
            body: event.body, maxResponseBytes: Self.maxResponseBytes)
    }

    /// The session id a `201` names in its `Location` (`.../api/v1/sessions/{sid}`): its last path
    /// component, nil when there is none.
    package static func sessionID(fromLocation location: String?) -> String? {
        guard let location else { return nil }
        let path = location.prefix { $0 != "?" && $0 != "#" }
        let component = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init)
        guard let component, !component.isEmpty, component.count <= 256 else { return nil }
        return component.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.~".unicodeScalars.contains($0) }
            ? component : nil
    }
}
