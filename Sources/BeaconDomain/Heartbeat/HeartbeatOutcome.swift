/// What became of one heartbeat or concurrency request.
package enum HeartbeatOutcome: Sendable, Equatable {
    /// An HTTP answer, after redirects, with its body (read only on 2xx).
    case answered(status: Int, body: [UInt8])
    /// No answer: a network error or a timeout.
    case failed(reason: String)
    /// Never sent: the daemon is quiet or the reporter disabled. Counts neither way.
    case notSent

    /// The status, or what happened instead, in a few words (the status's last answer).
    package var summary: String {
        switch self {
        case .answered(let status, _): "HTTP \(status)"
        case .failed(let reason): reason
        case .notSent: "not sent"
        }
    }
}
