#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The URLs of one ad-insertion session, as handed to the player and shown in status.
public struct SessionEndpoints: Sendable, Equatable, Codable {
    /// The stream URL the session was started from.
    public var mediaUrl: String
    /// The session's own manifest: what the player must play.
    public var manifestUrl: String
    /// Where the ad-tracking metadata is polled.
    public var trackingUrl: String
    /// The ad-insertion service's session id (`sessid`), when the URLs carry one.
    public var sessionId: String?

    public init(mediaUrl: String, manifestUrl: String, trackingUrl: String, sessionId: String?) {
        self.mediaUrl = mediaUrl
        self.manifestUrl = manifestUrl
        self.trackingUrl = trackingUrl
        self.sessionId = sessionId
    }

    /// What the journal files this session's deliveries under: its `sessid`, or else its media URL.
    public var journalKey: String { sessionId ?? mediaUrl }

    private enum CodingKeys: String, CodingKey { case mediaUrl, manifestUrl, trackingUrl, sessionId }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mediaUrl, forKey: .mediaUrl)
        try container.encode(manifestUrl, forKey: .manifestUrl)
        try container.encode(trackingUrl, forKey: .trackingUrl)
        try container.encode(sessionId, forKey: .sessionId)
    }

    /// The query parameter that carries the session id.
    public static let sessionParameter = "sessid"

    /// The session id in a URL's query, if any.
    public static func sessionID(in url: String) -> String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == sessionParameter }?.value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The metadata URL of a session manifest: its last path segment replaced by `metadata`, query kept.
    public static func trackingURL(forManifest manifest: String) -> String? {
        guard var components = URLComponents(string: manifest) else { return nil }
        var path = components.path
        if let slash = path.lastIndex(of: "/") {
            path = String(path[...slash]) + "metadata"
        } else {
            path = "/metadata"
        }
        components.path = path
        components.fragment = nil
        return components.string
    }

    /// `reference` resolved against `base`, as an absolute http(s) URL.
    public static func resolve(_ reference: String, against base: String) -> String? {
        guard let url = URL(string: reference, relativeTo: URL(string: base)) else { return nil }
        let absolute = url.absoluteString
        return URLPolicy.refusal(of: absolute) == nil ? absolute : nil
    }

    /// `url` with one query item added.
    static func adding(query name: String, value: String, to url: String) -> String? {
        guard var components = URLComponents(string: url) else { return nil }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: name, value: value)]
        return components.string
    }
}
