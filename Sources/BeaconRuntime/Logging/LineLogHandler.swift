import BeaconDomain
#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Writes one line per log record to stderr:
/// `[LEVEL] [UTC timestamp] [component] #operation > message key=value ...`.
///
/// The component is the `component` metadata value, or else the logger's label; the operation is the
/// `operation` metadata value (see `Logger.operation(_:component:)`), left out when there is none.
/// Under journald (`$JOURNAL_STREAM` set) each line starts with its syslog priority, `<6>` for
/// info, so `journalctl -p warning` works, and carries no timestamp of ours: journald adds its own.
///
/// Lines are cheap: the logger's own metadata is rendered when it changes, not per line, and a line
/// is built as bytes in one buffer and handed whole to `output` (a ``LogOutput`` in the daemon), so
/// lines from concurrent tasks never interleave.
///
/// The level is the shared one (a reload changes it for every logger) until a logger sets its own.
package struct LineLogHandler: LogHandler {
    /// How lines are framed.
    package enum Style: Sendable {
        /// For a person: with our UTC timestamp.
        case human
        /// For journald: a `<N>` priority prefix, no timestamp.
        case journald

        /// `.journald` when systemd connected stderr to the journal.
        package init(environment: [String: String]) {
            self = environment["JOURNAL_STREAM", default: ""].isEmpty ? .human : .journald
        }
    }

    package var logLevel: Logger.Level {
        get { ownLevel ?? sharedLevel.level }
        set { ownLevel = newValue }
    }
    private let sharedLevel: SharedLogLevel
    private var ownLevel: Logger.Level?
    package var metadata: Logger.Metadata = [:] {
        didSet { render() }
    }
    private let label: String
    private let style: Style
    private let now: @Sendable () -> Milliseconds
    private let output: @Sendable ([UInt8]) -> Void
    private var component: String
    private var operation: String?
    /// ` key=value` for the logger's own metadata, sorted by key.
    private var fields: [UInt8] = []

    /// - Parameters:
    ///   - output: receives each line, newline included.
    package init(
        component: String, logLevel: Logger.Level = .info, style: Style = .human,
        now: @escaping @Sendable () -> Milliseconds = WallClock.now,
        output: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.init(component: component, level: SharedLogLevel(logLevel), style: style, now: now, output: output)
    }

    /// A handler whose level is `level` until its logger sets its own.
    package init(
        component: String, level: SharedLogLevel, style: Style = .human,
        now: @escaping @Sendable () -> Milliseconds = WallClock.now,
        output: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.label = component
        self.component = component
        self.sharedLevel = level
        self.style = style
        self.now = now
        self.output = output
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    private mutating func render() {
        component = metadata["component"].map { "\($0)" } ?? label
        operation = metadata["operation"].map { "\($0)" }
        fields = []
        Self.append(metadata, to: &fields)
    }

    /// ` key=value` for each entry but the component and operation, sorted by key.
    private static func append(_ metadata: Logger.Metadata, to bytes: inout [UInt8]) {
        for key in metadata.keys.sorted() where key != "component" && key != "operation" {
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: key.utf8)
            bytes.append(UInt8(ascii: "="))
            bytes.append(contentsOf: metadata[key].map { "\($0)" }?.utf8 ?? "".utf8)
        }
    }

    package func log(event: LogEvent) {
        output(line(level: event.level, message: event.message.description, metadata: event.metadata))
    }

    /// One whole line, newline included.
    func line(level: Logger.Level, message: String, metadata extra: Logger.Metadata?) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(80 + component.utf8.count + message.utf8.count + fields.count)
        if style == .journald {
            line.append(UInt8(ascii: "<"))
            line.append(UInt8(ascii: "0") + Self.priority(level))
            line.append(UInt8(ascii: ">"))
        }
        line.append(UInt8(ascii: "["))
        Self.name(level).withUTF8Buffer { line.append(contentsOf: $0) }
        line.append(contentsOf: "] ".utf8)
        if style == .human {
            line.append(UInt8(ascii: "["))
            UTCTime.append(now(), to: &line)
            line.append(contentsOf: "] ".utf8)
        }
        // Metadata given with the record itself is rare (our messages carry their key=value pairs): it may allocate.
        let shownComponent = extra?["component"].map { "\($0)" } ?? component
        let shownOperation = extra?["operation"].map { "\($0)" } ?? operation
        line.append(UInt8(ascii: "["))
        line.append(contentsOf: shownComponent.utf8)
        line.append(contentsOf: "] ".utf8)
        if let shownOperation {
            line.append(UInt8(ascii: "#"))
            line.append(contentsOf: shownOperation.utf8)
            line.append(UInt8(ascii: " "))
        }
        line.append(contentsOf: "> ".utf8)
        line.append(contentsOf: message.utf8)
        line.append(contentsOf: fields)
        if let extra, !extra.isEmpty { Self.append(extra, to: &line) }
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// The warning line that says `count` lines were dropped, framed like every other line.
    package static func droppedLinesNotice(count: Int, style: Style, now: @escaping @Sendable () -> Milliseconds = WallClock.now) -> [UInt8] {
        LineLogHandler(component: "daemon", style: style, now: now, output: { _ in })
            .line(
                level: .warning, message: "log lines dropped: stderr did not take them in time count=\(count)",
                metadata: ["operation": "log"])
    }

    /// The syslog priority journald reads from a `<N>` prefix.
    static func priority(_ level: Logger.Level) -> UInt8 {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    static func name(_ level: Logger.Level) -> StaticString {
        switch level {
        case .trace: "TRACE"
        case .debug: "DEBUG"
        case .info: "INFO"
        case .notice: "NOTICE"
        case .warning: "WARNING"
        case .error: "ERROR"
        case .critical: "CRITICAL"
        }
    }
}
