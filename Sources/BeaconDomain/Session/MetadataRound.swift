/// One metadata refresh as decisions: given each answer, what it means and which request, if any,
/// comes next.
///
/// The first request is the tracking URL (for MediaTailor, from the token the last refresh ended
/// on). A body equal byte for byte to the last one read is not decoded again. The dialect, when not
/// known yet, is decided by the first document. A MediaTailor refresh follows each page's
/// `nextToken` until a page brings no avail not seen, no token, the same token, or
/// ``maxMediaTailorPages``; its pages merge into one document on media time, with the
/// program-date-time offset remembered from the first page that gave one.
package struct MetadataRound: Sendable {
    /// The most pages one MediaTailor refresh follows: a service handing out tokens without end
    /// does not hold the session's refreshes.
    package static let maxMediaTailorPages = 20

    package let trackingURL: String
    /// The session's dialect: given, or decided by this round's first document.
    package private(set) var dialect: Dialect?
    /// What the next refresh starts from (see ``MetadataRefresh/remember(_:)``).
    package private(set) var lastBody: [UInt8]?
    package private(set) var nextToken: String?
    package private(set) var programDateTimeOffset: Milliseconds?
    /// The status and size of the first answer, for the log.
    package private(set) var firstAnswer: (status: Int, bytes: Int)?
    /// The request to make now.
    package private(set) var url: String
    private var pages: [MediaTailorDocument] = []
    private var bytes = 0
    /// The token of the page requested last.
    private var token: String?

    /// What the refresh came to.
    package enum Outcome: Sendable, Equatable {
        /// The same document as before: nothing to apply.
        case unchanged(bytes: Int)
        /// A document to apply.
        case document(MetadataDocument, bytes: Int)
        /// The refresh failed, for `reason`; the server asked to wait `requestedWait` if it said so.
        case failed(reason: String, requestedWait: Milliseconds?)
        /// The request was cancelled: the session it was for has ended.
        case cancelled
    }

    /// What follows an answer.
    package enum Step: Sendable, Equatable {
        /// Request this URL next (a MediaTailor page).
        case request(String)
        case finished(Outcome)
    }

    init(trackingURL: String, dialect: Dialect?, lastBody: [UInt8]?, nextToken: String?, programDateTimeOffset: Milliseconds?) {
        self.trackingURL = trackingURL
        self.dialect = dialect
        self.lastBody = lastBody
        self.nextToken = nextToken
        self.programDateTimeOffset = programDateTimeOffset
        token = nextToken
        url = nextToken.map { SessionEndpoints.page(trackingURL, nextToken: $0) } ?? trackingURL
    }

    /// The answer to the request of ``url``, at `wallNow` on the wall clock (a `Retry-After` may name a date).
    package mutating func received(_ answer: Result<HTTPClientResponse, HTTPClientError>, wallNow: Milliseconds) -> Step {
        let page = pages.isEmpty ? "" : " (nextToken page)"
        let response: HTTPClientResponse
        switch answer {
        case .failure(.cancelled): return .finished(.cancelled)
        case .failure(let error): return .finished(.failed(reason: "\(error.description)\(page)", requestedWait: nil))
        case .success(let answered): response = answered
        }
        if firstAnswer == nil { firstAnswer = (response.status, response.body.count) }
        guard response.isSuccess else {
            // Only the first request's Retry-After counts, as it always has: a page's failure retries at the backoff.
            guard pages.isEmpty else { return .finished(.failed(reason: "HTTP \(response.status)\(page)", requestedWait: nil)) }
            let requested = response.requestedWait(wallNow: wallNow)
            let asked = requested.map { " (Retry-After \(UTCTime.formatSpan($0)))" } ?? ""
            return .finished(.failed(reason: "HTTP \(response.status)\(asked)", requestedWait: requested))
        }
        if dialect == nil { dialect = Dialect.of(trackingDocument: response.body) }
        return dialect == .mediatailor ? receivedPage(response.body) : .finished(received(document: response.body))
    }

    private mutating func received(document body: [UInt8]) -> Outcome {
        // Most refreshes repeat the last body: comparing bytes is far cheaper than decoding.
        if MetadataBody.repeats(body, last: lastBody) { return .unchanged(bytes: body.count) }
        do {
            let document = try MetadataDocument.decode(body)
            lastBody = body
            return .document(document, bytes: body.count)
        } catch {
            return .failed(reason: "rejected: \(error.reason)", requestedWait: nil)
        }
    }

    private mutating func receivedPage(_ body: [UInt8]) -> Step {
        let page: MediaTailorDocument
        do {
            page = try MediaTailorDocument.decode(body)
        } catch {
            return .finished(.failed(reason: "rejected: \(error.reason)", requestedWait: nil))
        }
        bytes += body.count
        let seen = Set(pages.flatMap(\.metadata.adBreaks).map(\.id))
        let bringsNew = page.metadata.adBreaks.contains { adBreak in !seen.contains(adBreak.id) }
        pages.append(page)
        if bringsNew, pages.count < Self.maxMediaTailorPages, let next = page.nextToken, next != token {
            token = next
            url = SessionEndpoints.page(trackingURL, nextToken: next)
            return .request(url)
        }
        let merged = MediaTailorDocument.merged(pages)
        nextToken = merged.nextToken ?? token
        var document = merged.metadata
        if document.programDateTimeOffset == nil { document.programDateTimeOffset = programDateTimeOffset }
        programDateTimeOffset = document.programDateTimeOffset
        // Nothing new since the last token: what is known stands as it was.
        return .finished(document.adBreaks.isEmpty ? .unchanged(bytes: bytes) : .document(document, bytes: bytes))
    }

    /// How many pages this refresh read (MediaTailor), for the log.
    package var pageCount: Int { pages.count }
}
