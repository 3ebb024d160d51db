/// A line a core asks its runtime to log, with its level. The message is built only when the line
/// is shown: debug lines on the beacon path cost nothing at the default level.
public struct LogLine: Sendable, Equatable, CustomStringConvertible {
    public enum Level: Sendable, Equatable {
        case debug, info, notice, warning, error
    }

    public var level: Level
    private let text: @Sendable () -> String

    public init(_ level: Level, _ message: @autoclosure @escaping @Sendable () -> String) {
        self.level = level
        text = message
    }

    public var message: String { text() }
    public var description: String { message }

    public static func == (lhs: LogLine, rhs: LogLine) -> Bool {
        lhs.level == rhs.level && lhs.message == rhs.message
    }
}
