/// A log record's `SeverityNumber`: the first number of each of the protocol's six ranges (each
/// range holds four levels; the daemon needs only one of each).
package enum OTLPSeverity: Int, Sendable, Equatable, CaseIterable {
    case trace = 1
    case debug = 5
    case info = 9
    case warn = 13
    case error = 17
    case fatal = 21

    /// The short name the protocol gives the level, the default `severityText`.
    package var text: String {
        switch self {
        case .trace: "TRACE"
        case .debug: "DEBUG"
        case .info: "INFO"
        case .warn: "WARN"
        case .error: "ERROR"
        case .fatal: "FATAL"
        }
    }
}
