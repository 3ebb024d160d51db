/// What the outcome of one request says about its URL's host, beyond the URL itself.
///
/// An HTTP answer, whatever its status, is about the URL; so is a request sent that got no answer
/// in time, or a redirect that led somewhere unreachable. Only a failure to reach the host at all
/// (DNS, refused, reset before any answer, connect or TLS timeout) says the host looks down.
enum HostSignal: Sendable, Equatable {
    /// The host took the request: it is up, whatever became of the URL.
    case reached
    /// The host could not be reached.
    case unreachable
    /// Nothing is known about the host (the request never left).
    case none

    init(_ outcome: RequestResult.Outcome) {
        switch outcome {
        case .answered:
            self = .reached
        case .failed(let error) where error.isHostUnreachable:
            self = .unreachable
        case .failed(.timedOut), .failed(.tooManyRedirects), .failed(.responseTooLarge), .failed(.transferFailed):
            self = .reached
        case .failed, .refused, .notSent:
            self = .none
        }
    }
}
