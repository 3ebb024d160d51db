/// How the collector double answers one of the next valid export requests
/// (``CollectorDouble/script(_:)``); once the script is used up, 200 with an empty response.
struct ScriptedAnswer: Encodable, Sendable {
    struct PartialSuccess: Encodable, Sendable {
        var rejected: Int
        var message: String
    }

    var status: Int?
    var retryAfter: String?
    var partialSuccess: PartialSuccess?
    var hang: Bool?
    /// Waits for a request of this path ("/v1/logs", "/v1/metrics"); nil: the next of either.
    var path: String?

    /// `status` (a 503, a 429, a 400), with a Retry-After header when given.
    static func status(_ status: Int, retryAfter: String? = nil) -> ScriptedAnswer {
        ScriptedAnswer(status: status, retryAfter: retryAfter)
    }

    /// 200 with a partial success: `rejected` records or points refused, and why.
    static func partialSuccess(rejected: Int, message: String) -> ScriptedAnswer {
        ScriptedAnswer(status: 200, partialSuccess: PartialSuccess(rejected: rejected, message: message))
    }

    /// Read and never answered, until ``CollectorDouble/releaseHanging()`` (then 200) or the double stops.
    static let hang = ScriptedAnswer(hang: true)

    /// This answer, for the next request of `path` only.
    func only(_ path: String) -> ScriptedAnswer {
        var answer = self
        answer.path = path
        return answer
    }
}
