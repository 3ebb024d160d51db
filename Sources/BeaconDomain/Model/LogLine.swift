/// A line a core asks its runtime to log, with its level. The message is built only when the line
/// is shown: debug lines on the beacon path cost nothing at the default level.
package struct LogLine: Sendable, Equatable, CustomStringConvertible {
    package enum Level: Sendable, Equatable {
        case debug, info, notice, warning, error
    }

    package var level: Level
    private let text: @Sendable () -> String

    package init(_ level: Level, _ message: @autoclosure @escaping @Sendable () -> String) {
        self.level = level
        text = message
    }

    package var message: String { text() }
    package var description: String { message }

    package static func == (lhs: LogLine, rhs: LogLine) -> Bool {
        lhs.level == rhs.level && lhs.message == rhs.message
    }
}
