#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Starts a session at the ad-insertion service for a media URL.
///
/// In order: POST to the media URL (unless ``isInitRequest`` is false); GET it with `initSession=true`; a plain GET, taking the
/// redirect target (or else the master playlist's first variant) as the manifest and deriving the
/// metadata URL from it. A media URL that already carries `sessid` needs no request at all. The
/// relative URLs of an init answer are resolved against the media URL, as Harmonic's document
/// says ("the host in the original URL"), even when the request was redirected to another host.
///
/// MediaTailor (``Dialect/mediatailor``, or `auto` for a URL under `/v1/session/`): one POST of
/// `{"reportingMode": "client", "adsParams": {...}}` to the session-initialization URL, whose answer
/// gives `manifestURL` and `trackingURL`, relative to the URL answering.
///
/// An SGAI session (``sgai``, MediaTailor's unless another dialect is asked for) is asked for in
/// the forms AWS documents: `aws.reportingMode=CLIENT` added to the session-initialization
/// request's query (https://docs.aws.amazon.com/mediatailor/latest/ug/sgai-ad-tracking.html), and
/// the explicit POST's body keys `"reportingMode": "client"` and `"insertionMode": "GUIDED"`
/// (manifest-query-parameters-hls-and-dash-explicit-session-initialization.html, server-guided.html).
/// Its answer needs no `trackingUrl`: the asset lists carry the tracking, nothing is polled, and
/// the session id is the manifest URL's `aws.sessionId`.
package struct SessionInitializer: Sendable {
    package var client: any HTTPClient
    /// The largest init or playlist body read.
    package var maxBodyBytes: Int
    /// The service spoken to; nil (`auto`): from the URL, else from the answer.
    package var dialect: Dialect?
    /// Passed through to MediaTailor's session init.
    package var adsParams: [String: String]?
    /// Harmonic's `isInitRequest`: false skips the POST, for a service that does not take it; the
    /// GET ways remain.
    package var isInitRequest: Bool
    /// A MediaTailor server-guided ad insertion session in client-side reporting, as the `sgai`
    /// setting or a `load` asks: with `auto`, MediaTailor's init whatever the URL.
    package var sgai: Bool

    package init(
        client: any HTTPClient, maxBodyBytes: Int = 1 << 20, dialect: Dialect? = nil, adsParams: [String: String]? = nil, isInitRequest: Bool = true,
        sgai: Bool = false
    ) {
        self.client = client
        self.maxBodyBytes = maxBodyBytes
        self.dialect = dialect
        self.adsParams = adsParams
        self.isInitRequest = isInitRequest
        self.sgai = sgai
    }

    package func start(mediaURL: String) async throws(SessionInitError) -> SessionEndpoints {
        if let refusal = URLPolicy.refusal(of: mediaURL) {
            throw SessionInitError(reason: "media URL refused: \(refusal)", isPermanent: true)
        }
        if (dialect ?? (sgai ? .mediatailor : Dialect.named(byInitURL: mediaURL))) == .mediatailor {
            return try await mediaTailorInit(mediaURL: mediaURL)
        }
        if SessionEndpoints.sessionID(in: mediaURL) != nil {
            return try endpoints(media: mediaURL, manifest: mediaURL, tracking: SessionEndpoints.trackingURL(forManifest: mediaURL))
        }
        var failures: [String] = []
        var everyWayAnswered = true
        for attempt in isInitRequest ? [Attempt.post, .initSessionQuery] : [.initSessionQuery] {
            do {
                return try await initRequest(attempt, mediaURL: mediaURL)
            } catch {
                failures.append("\(attempt.rawValue): \(error.reason)")
                everyWayAnswered = everyWayAnswered && error.answeredWithoutSession
            }
        }
        do {
            return try await plainGet(mediaURL: mediaURL)
        } catch {
            failures.append("GET: \(error.reason)")
            everyWayAnswered = everyWayAnswered && error.answeredWithoutSession
        }
        throw SessionInitError(reason: failures.joined(separator: "; "), answeredWithoutSession: everyWayAnswered)
    }

    private enum Attempt: String {
        case post = "POST"
        case initSessionQuery = "GET ?initSession=true"
    }

    private struct InitResponse: Decodable {
        var manifestURL: String
        /// None for an SGAI session.
        var trackingURL: String?

        // The wire names, as documents and earlier releases spell them.
        enum CodingKeys: String, CodingKey { case manifestURL = "manifestUrl", trackingURL = "trackingUrl" }
    }

    /// MediaTailor's session-initialization request body.
    private struct MediaTailorInitRequest: Encodable {
        var reportingMode = "client"
        /// `GUIDED` for an SGAI session; left out otherwise (MediaTailor's default is stitched).
        var insertionMode: String?
        var adsParams: [String: String]?
    }

    /// The query parameter, and its value, that asks MediaTailor for client-side reporting of an SGAI session.
    package static let sgaiReportingQuery = (name: "aws.reportingMode", value: "CLIENT")

    private func mediaTailorInit(mediaURL: String) async throws(SessionInitError) -> SessionEndpoints {
        let body = JSONLine.encode(MediaTailorInitRequest(insertionMode: sgai ? "GUIDED" : nil, adsParams: adsParams))
        var url = mediaURL
        if sgai {
            guard let withQuery = SessionEndpoints.adding(query: Self.sgaiReportingQuery.name, value: Self.sgaiReportingQuery.value, to: mediaURL) else {
                throw SessionInitError(reason: "cannot add \(Self.sgaiReportingQuery.name) to the media URL", isPermanent: true)
            }
            url = withQuery
        }
        let request = HTTPClientRequest(
            method: .post, url: url, headers: [(name: "Content-Type", value: "application/json")], body: Array(body.utf8),
            maxResponseBytes: maxBodyBytes)
        let response: HTTPClientResponse
        do {
            response = try await send(request)
        } catch {
            throw SessionInitError(reason: "MediaTailor POST: \(error.reason)")
        }
        guard sgai else { return try endpoints(answeredBy: response, media: mediaURL, base: response.finalURL, place: "MediaTailor POST: ") }
        return try sgaiEndpoints(answeredBy: response, media: mediaURL)
    }

    /// An SGAI session's endpoints: its manifest, relative to the URL that answered, its session id
    /// the manifest's `aws.sessionId`. No tracking URL: one in the answer is not polled either, as
    /// MediaTailor's GetTracking is not used for SGAI sessions.
    private func sgaiEndpoints(answeredBy response: HTTPClientResponse, media: String) throws(SessionInitError) -> SessionEndpoints {
        guard let answer = try? JSONDecoder().decode(InitResponse.self, from: Data(response.body)) else {
            throw SessionInitError(reason: "MediaTailor POST: HTTP \(response.status) without manifestUrl", answeredWithoutSession: true)
        }
        guard let manifest = SessionEndpoints.resolve(answer.manifestURL, against: response.finalURL) else {
            throw SessionInitError(reason: "the service returned unusable URLs", answeredWithoutSession: true)
        }
        return SessionEndpoints(
            mediaURL: media, manifestURL: manifest, trackingURL: "",
            sessionID: SessionEndpoints.sessionID(in: manifest, parameter: SessionEndpoints.mediaTailorSessionParameter), dialect: .mediatailor,
            isSGAI: true)
    }

    private func initRequest(_ attempt: Attempt, mediaURL: String) async throws(SessionInitError) -> SessionEndpoints {
        let request: HTTPClientRequest
        switch attempt {
        case .post:
            request = HTTPClientRequest(method: .post, url: mediaURL, maxResponseBytes: maxBodyBytes)
        case .initSessionQuery:
            guard let url = SessionEndpoints.adding(query: "initSession", value: "true", to: mediaURL) else {
                throw SessionInitError(reason: "cannot add initSession to the media URL")
            }
            request = HTTPClientRequest(url: url, maxResponseBytes: maxBodyBytes)
        }
        return try endpoints(answeredBy: try await send(request), media: mediaURL, base: mediaURL)
    }

    /// The endpoints an init answer names, relative to `base`; `place` prefixes the reason of an
    /// answer without them.
    private func endpoints(
        answeredBy response: HTTPClientResponse, media: String, base: String, place: String = ""
    ) throws(SessionInitError) -> SessionEndpoints {
        guard let answer = try? JSONDecoder().decode(InitResponse.self, from: Data(response.body)), let tracking = answer.trackingURL else {
            throw SessionInitError(reason: "\(place)HTTP \(response.status) without manifestUrl and trackingUrl", answeredWithoutSession: true)
        }
        return try endpoints(
            media: media,
            manifest: SessionEndpoints.resolve(answer.manifestURL, against: base),
            tracking: SessionEndpoints.resolve(tracking, against: base))
    }

    private func plainGet(mediaURL: String) async throws(SessionInitError) -> SessionEndpoints {
        let response = try await send(HTTPClientRequest(url: mediaURL, maxResponseBytes: maxBodyBytes))
        let manifest: String?
        if response.finalURL != mediaURL {
            manifest = response.finalURL
        } else if let variant = Self.firstVariant(ofPlaylist: response.body) {
            manifest = SessionEndpoints.resolve(variant, against: response.finalURL)
        } else {
            throw SessionInitError(reason: "no redirect and no variant in the playlist", answeredWithoutSession: true)
        }
        return try endpoints(media: mediaURL, manifest: manifest, tracking: manifest.flatMap(SessionEndpoints.trackingURL(forManifest:)))
    }

    private func send(_ request: HTTPClientRequest) async throws(SessionInitError) -> HTTPClientResponse {
        let response: HTTPClientResponse
        do {
            response = try await client.send(request)
        } catch {
            throw SessionInitError(reason: error.description)
        }
        // A 4xx is the service's answer; a 5xx, like the network, may heal.
        guard response.isSuccess else { throw SessionInitError(reason: "HTTP \(response.status)", answeredWithoutSession: response.status < 500) }
        return response
    }

    /// The session's endpoints; the dialect is the one asked for, else MediaTailor's when the
    /// tracking URL is under `/v1/tracking/` and carries no `sessid`, else Harmonic's.
    private func endpoints(media: String, manifest: String?, tracking: String?) throws(SessionInitError) -> SessionEndpoints {
        guard let manifest, let tracking else { throw SessionInitError(reason: "the service returned unusable URLs", answeredWithoutSession: true) }
        let sessid = SessionEndpoints.sessionID(in: manifest) ?? SessionEndpoints.sessionID(in: tracking)
        if dialect == .mediatailor || (dialect == nil && sessid == nil && tracking.contains("/v1/tracking/")) {
            // MediaTailor's session id is the tracking URL's last path segment.
            let id = sessid ?? URLComponents(string: tracking)?.path.split(separator: "/").last.map(String.init)
            return SessionEndpoints(mediaURL: media, manifestURL: manifest, trackingURL: tracking, sessionID: id, dialect: .mediatailor)
        }
        guard let sessionID = SessionEndpoints.sessionID(in: manifest) ?? SessionEndpoints.sessionID(in: tracking) else {
            throw SessionInitError(reason: "the stream's URLs carry no sessid: is this an ad-insertion stream?", answeredWithoutSession: true)
        }
        return SessionEndpoints(mediaURL: media, manifestURL: manifest, trackingURL: tracking, sessionID: sessionID, dialect: .harmonic)
    }

    /// The URI of the first variant stream of an HLS master playlist.
    static func firstVariant(ofPlaylist body: [UInt8]) -> String? {
        let lines = String(decoding: body, as: UTF8.self).split(whereSeparator: \.isNewline).map { $0.trimmedOfWhitespace }
        guard lines.first == "#EXTM3U" else { return nil }
        var sawStreamInfo = false
        for line in lines {
            if line.hasPrefix("#EXT-X-STREAM-INF") {
                sawStreamInfo = true
            } else if sawStreamInfo, !line.isEmpty, !line.hasPrefix("#") {
                return line
            }
        }
        return nil
    }
}

/// Why no session could be started.
package struct SessionInitError: Error, Sendable, Equatable, CustomStringConvertible {
    package var reason: String
    /// Whether no later attempt can succeed (a media URL refused before any request), so retrying
    /// is pointless; anything that went wrong on the network or at the service may heal.
    package var isPermanent: Bool
    /// Whether the service answered (no network error, no 5xx) without giving a session: the
    /// stream may be no ad-insertion stream at all, and is then played as it is.
    package var answeredWithoutSession: Bool

    package init(reason: String, isPermanent: Bool = false, answeredWithoutSession: Bool = false) {
        self.reason = reason
        self.isPermanent = isPermanent
        self.answeredWithoutSession = answeredWithoutSession
    }

    package var description: String { reason }
}
