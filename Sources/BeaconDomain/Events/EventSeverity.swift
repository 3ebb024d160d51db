/// How serious a recorded event is; the first digit of its code says the same.
package enum EventSeverity: String, Sendable, Codable, CaseIterable {
    case error
    case warning
    case info

    /// The first digit of every code of this severity: 1 errors, 2 warnings, 3 info.
    package var band: Int {
        switch self {
        case .error: 1
        case .warning: 2
        case .info: 3
        }
    }
}
