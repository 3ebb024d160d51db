/// One request the collector double received, as it recorded it.
struct CollectedRequest: Decodable, Sendable {
    /// Its place among the requests since the double started or was reset.
    var index: Int
    var method: String
    var path: String
    /// Every header, names lower-cased; repeated ones joined with ", ".
    var headers: [String: String]
    /// "json" or "protobuf"; nil when the body was not read as either.
    var encoding: String?
    /// The body as sent, and once decompressed.
    var wireBytes: Int
    var bodyBytes: Int
    /// What broke OTLP/HTTP or OTLP/JSON; the request was answered 400 when any.
    var violations: [String]
    /// nil while the request hangs unanswered.
    var status: Int?
    /// Answered 2xx.
    var accepted: Bool

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}
