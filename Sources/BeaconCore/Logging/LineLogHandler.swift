#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Writes one human-readable line per log record to stderr:
/// `[LEVEL] [UTC timestamp] [component] message key=value ...`.
///
/// The component is the `component` metadata value, or else the logger's label. Each line goes out in one `write(2)`, so lines from
/// concurrent tasks never interleave.
public struct LineLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let component: String
    private let now: @Sendable () -> Milliseconds

    public init(component: String, logLevel: Logger.Level = .info, now: @escaping @Sendable () -> Milliseconds = WallClock.now) {
        self.component = component
        self.logLevel = logLevel
        self.now = now
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = event.metadata.map { metadata.merging($0) { $1 } } ?? metadata
        let shownComponent = merged.removeValue(forKey: "component").map { "\($0)" } ?? component
        var line = "[\(event.level.rawValue.uppercased())] [\(UTCTime.format(now()))] [\(shownComponent)] \(event.message)"
        for key in merged.keys.sorted() {
            line += " \(key)=\(merged[key].map { "\($0)" } ?? "")"
        }
        line += "\n"
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count)
        }
    }
}
