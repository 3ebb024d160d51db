#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The URLs of one ad-insertion session, as handed to the player and shown in status.
public struct SessionEndpoints: Sendable, Equatable, Codable {
    /// The stream URL the session was started from.
    package var mediaURL: String
    /// The session's own manifest: what the player must play.
    package var manifestURL: String
    /// Where the ad-tracking metadata is polled; empty when none is (a plain stream, an SGAI session).
    package var trackingURL: String
    /// The ad-insertion service's session id (`sessid`), when the URLs carry one.
    package var sessionID: String?
    /// The service the session speaks to; nil while `auto` has not decided (a session given its
    /// tracking URL, until its first document).
    package var dialect: Dialect?
    /// Why the stream plays as it is, without a session: the service answered every way without a
    /// session id. The player gets the media URL, nothing is polled; nil for a session.
    package var plainReason: String?
    /// A MediaTailor server-guided ad insertion (SGAI) session: its ads come as HLS interstitials,
    /// and in client-side reporting each asset list carries their tracking; no tracking URL is polled.
    package var isSGAI: Bool

    public init(
        mediaURL: String, manifestURL: String, trackingURL: String, sessionID: String?, dialect: Dialect? = nil, isSGAI: Bool = false
    ) {
        self.mediaURL = mediaURL
        self.manifestURL = manifestURL
        self.trackingURL = trackingURL
        self.sessionID = sessionID
        self.dialect = dialect
        self.isSGAI = isSGAI
    }

    /// The stream played as it is, for `reason`: its own URL as the manifest, no tracking URL.
    package static func plain(mediaURL: String, reason: String) -> SessionEndpoints {
        var endpoints = SessionEndpoints(mediaURL: mediaURL, manifestURL: mediaURL, trackingURL: "", sessionID: nil)
        endpoints.plainReason = reason
        return endpoints
    }

    package var isPlain: Bool { plainReason != nil }

    /// Whether a tracking URL is polled: not for a plain stream, nor for an SGAI session, whose
    /// tracking comes with each asset list.
    package var pollsMetadata: Bool { !isPlain && !trackingURL.isEmpty }

    /// The session key: what the beacon journal files this session's deliveries and snapshot under,
    /// its `sessid`, or else its media URL.
    package var sessionKey: String { sessionID ?? mediaURL }

    private enum CodingKeys: String, CodingKey {
        case mediaURL = "mediaUrl", manifestURL = "manifestUrl", trackingURL = "trackingUrl", sessionID = "sessionId", dialect, plain, plainReason, sgai
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mediaURL = try container.decode(String.self, forKey: .mediaURL)
        manifestURL = try container.decode(String.self, forKey: .manifestURL)
        trackingURL = try container.decode(String.self, forKey: .trackingURL)
        sessionID = try container.decodeIfPresent(String.self, forKey: .sessionID)
        dialect = try container.decodeIfPresent(Dialect.self, forKey: .dialect)
        plainReason = try container.decodeIfPresent(String.self, forKey: .plainReason)
        isSGAI = try container.decodeIfPresent(Bool.self, forKey: .sgai) ?? false
    }

    // `plain` and its reason only for a plain stream, `sgai` only for an SGAI session: any other
    // session's document is as it always was.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mediaURL, forKey: .mediaURL)
        try container.encode(manifestURL, forKey: .manifestURL)
        try container.encode(trackingURL, forKey: .trackingURL)
        try container.encode(sessionID, forKey: .sessionID)
        try container.encode(dialect, forKey: .dialect)
        if let plainReason {
            try container.encode(true, forKey: .plain)
            try container.encode(plainReason, forKey: .plainReason)
        }
        if isSGAI { try container.encode(true, forKey: .sgai) }
    }

    /// The query parameter that carries the session id.
    package static let sessionParameter = "sessid"

    /// The query parameter of a MediaTailor manifest URL that carries its session id.
    package static let mediaTailorSessionParameter = "aws.sessionId"

    /// The session id in a URL's query (`parameter`, `sessid` unless said), if any.
    package static func sessionID(in url: String, parameter: String = sessionParameter) -> String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == parameter }?.value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The metadata URL of a session manifest: its last path segment replaced by `metadata`, query kept.
    package static func trackingURL(forManifest manifest: String) -> String? {
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
    package static func resolve(_ reference: String, against base: String) -> String? {
        guard let url = URL(string: reference, relativeTo: URL(string: base)) else { return nil }
        let absolute = url.absoluteString
        return URLPolicy.refusal(of: absolute) == nil ? absolute : nil
    }

    /// The tracking URL of a MediaTailor page: `nextToken` added to its query. The token is sent as
    /// the service wrote it (MediaTailor's are already percent-encoded, `...%3D`); other bytes
    /// outside RFC 3986's unreserved set are percent-encoded.
    package static func page(_ trackingURL: String, nextToken token: String) -> String {
        var encoded = ""
        for byte in token.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isASCIIHexDigit || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
                || "-._~%".unicodeScalars.contains(scalar)
            {
                encoded.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        let (base, fragment) = trackingURL.firstIndex(of: "#").map { (trackingURL[..<$0], trackingURL[$0...]) } ?? (trackingURL[...], "")
        return base + (base.contains("?") ? "&" : "?") + "nextToken=" + encoded + fragment
    }

    /// `url` with one query item added.
    static func adding(query name: String, value: String, to url: String) -> String? {
        guard var components = URLComponents(string: url) else { return nil }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: name, value: value)]
        return components.string
    }
}
