import BeaconDomain
import Logging

/// The daemon's loggers, one per operation, so each line says what it is about.
struct DaemonLogs: Sendable {
    /// Session init, end and unload.
    var session: Logger
    var metadata: Logger
    /// Outgoing beacons.
    var beacon: Logger
    var input: Logger
    var drain: Logger
    var journal: Logger

    /// --debug-tracking shows the debug lines of metadata and beacons whatever the log level.
    init(_ logger: Logger, debugTracking: Bool) {
        func tracking(_ logger: Logger) -> Logger {
            var shown = logger
            if debugTracking && shown.logLevel > .debug { shown.logLevel = .debug }
            return shown
        }
        session = logger.operation("session", component: "session")
        metadata = tracking(logger.operation("metadata", component: "metadata"))
        beacon = tracking(logger.operation("beacon", component: "delivery"))
        input = logger.operation("input", component: "input")
        drain = logger.operation("drain", component: "daemon")
        journal = logger.operation("journal", component: "journal")
    }

    subscript(topic: DaemonLogTopic) -> Logger {
        switch topic {
        case .session: session
        case .metadata: metadata
        case .beacon: beacon
        case .input: input
        case .drain: drain
        case .journal: journal
        }
    }
}
