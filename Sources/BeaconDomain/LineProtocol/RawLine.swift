/// One line as it arrived on stdin or the control socket, before it is parsed.
package enum RawLine: Sendable, Equatable {
    /// A line of valid UTF-8 within the size limit, without its line terminator.
    case text(String)
    /// A line that cannot be read as text; it is counted and logged, never parsed.
    case unreadable(LineRejection)
}

/// Why a raw line was refused before parsing.
package enum LineRejection: Sendable, Equatable, CustomStringConvertible {
    case tooLong(limit: Int)
    case invalidUTF8

    package var description: String {
        switch self {
        case .tooLong(let limit): "line longer than \(limit) bytes"
        case .invalidUTF8: "line is not valid UTF-8"
        }
    }
}
