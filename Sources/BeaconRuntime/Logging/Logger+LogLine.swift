import BeaconDomain
import Logging

extension Logger {
    /// Logs a line a core decided on; its message is built only when its level is shown.
    func log(_ line: LogLine) {
        log(level: line.level.loggerLevel, "\(line.message)")
    }
}

extension LogLine.Level {
    fileprivate var loggerLevel: Logger.Level {
        switch self {
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
    }
}
