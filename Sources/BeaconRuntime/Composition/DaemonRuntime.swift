import BeaconDomain
import BeaconHTTP
import BeaconStorage
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The composition root of `run` and `demo`: the HTTP clients (beacons, and metadata on
/// connections of its own), the journal, the notification hub and its subscribers (event
/// history, metrics, systemd, the reporters, and what the command adds), and the daemon over them.
package struct DaemonRuntime: Sendable {
    /// What differs between `run` and `demo`.
    package struct Options: Sendable {
        package var configuration: DaemonConfiguration
        package var http: CurlHTTPClient.Configuration
        /// The state directory of the journal, locked before each opening; nil keeps everything in memory.
        package var stateDirectory: StateDirectoryLock?
        package var metricsAddress: MetricsAddress?
        /// The telemetry reporter exports the metrics: they are recorded even without `/metrics`.
        package var exportsMetrics = false
        /// The audit's bounds in the journal.
        package var auditBounds = AuditBounds.standard
        /// Where systemd's `NOTIFY_SOCKET` and `WATCHDOG_USEC` are read; without them, no systemd.
        package var environment: [String: String] = [:]
        /// Receives the session's JSON line when a session is ready.
        package var announce: @Sendable (String) -> Void = { _ in }
        /// Outputs of the command's own, told after the runtime's.
        package var subscribers: [any DaemonNotificationSubscriber] = []
        /// The configured reporters besides `beacons`, each built with an HTTP client of its own.
        package var reporters: [ReporterFactory] = []
        /// The installation id and privacy status; nil: kept in the state directory if there is
        /// one, else in memory.
        package var reporterState: (any ReporterStateStore)?

        package init(configuration: DaemonConfiguration, http: CurlHTTPClient.Configuration) {
            self.configuration = configuration
            self.http = http
        }
    }

    package let daemon: BeaconDaemon
    /// Reads the lines of stdin, the control socket and the demo's player.
    package let lines: ControlProtocol
    /// `beacons` and the configured reporters.
    package let reporters: ReporterRegistry
    /// Writes the viewer's privacy status to the per-box state as it changes.
    private let privacy: PrivacyStatusKeeper
    /// Where the player hears the heartbeat's notifications: the connection of its `load`, or stdout.
    package var player: PlayerChannel { lines.player }
    package let events: EventHistoryRecorder
    package let metrics: MetricsEndpoint?
    package let notifier: SystemdNotifier<ContinuousClock>?
    package let logger: Logger
    private let metricsAddress: MetricsAddress?
    private let clients: [CurlHTTPClient]
    private let logOutput: LogOutput
    private let quiet: Bool

    /// Builds the runtime; `logOutput` is the one ``startLogging(style:level:)`` returned.
    /// `time` and `random` are the only clocks and random source of the daemon and its reporters.
    package init(
        _ options: Options, logOutput: LogOutput, time: TimeSource = .system,
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        var random = random
        let logger = Logger(label: "daemon")
        let client = CurlHTTPClient(configuration: options.http)
        // Its own connections: beacon requests holding the metadata host's never delay a refresh.
        let metadataClient = CurlHTTPClient(configuration: options.http)
        let events = EventHistoryRecorder(now: { time.wallNow() })
        // The registry also feeds the telemetry reporter's metrics, with or without /metrics served.
        let metrics = options.metricsAddress != nil || options.exportsMetrics ? MetricsEndpoint() : nil
        let telemetry = TelemetrySources()
        let environment = options.environment
        let notifier = NotifySocket(environment: environment).map { notifySocket in
            SystemdNotifier(
                channel: notifySocket,
                petInterval: Watchdog.petInterval(environment: environment, processID: ProcessInfo.processInfo.processIdentifier),
                clock: ContinuousClock())
        }
        let reporterState = options.reporterState ?? Self.reporterState(in: options.stateDirectory, logger: logger, using: &random)
        let beacons = BeaconsReporter(quiet: options.configuration.quiet, time: time, random: random, logger: Logger(label: "reporter"))
        var reporterClients: [CurlHTTPClient] = []
        let player = PlayerChannel()
        let outputs: [(any DaemonNotificationSubscriber)?] = [events, notifier, metrics?.metrics, player]
        // What the daemon did and what a reporter told the player go round one hub, in one order.
        let hub = DaemonNotificationHub()
        let bookmarks: any BookmarkStore = options.stateDirectory.map { SQLiteBookmarkStore(directory: $0.directory) } ?? UnkeptBookmarks()
        let reporters = ReporterRegistry(
            [beacons]
                + options.reporters.map { factory in
                    let reporterClient = CurlHTTPClient(configuration: options.http)
                    reporterClients.append(reporterClient)
                    return factory(
                        ReporterContext(
                            client: reporterClient, time: time, random: random, state: reporterState, logger: Logger(label: "reporter"),
                            version: options.configuration.version, drainTimeout: options.configuration.drainTimeout,
                            bookmarks: bookmarks, telemetry: telemetry, publish: hub.publish))
                })
        let privacy = PrivacyStatusKeeper(state: reporterState, logger: logger)
        privacy.restore(to: reporters.subscribers)
        hub.subscribe((outputs + [privacy]).compactMap { $0 } + reporters.subscribers + options.subscribers)
        let (maxAge, auditBounds) = (options.configuration.beaconMaxAge.milliseconds, options.auditBounds)
        var journal: (@Sendable () throws(JournalError) -> any BeaconJournal)?
        if let lock = options.stateDirectory {
            journal = { () throws(JournalError) in
                do throws(StateDirectoryLockError) { try lock.acquire() } catch { throw JournalError(reason: error.description) }
                return try SQLiteBeaconJournal(directory: lock.directory, time: time, beaconMaxAge: maxAge, auditBounds: auditBounds)
            }
        }
        let daemon = BeaconDaemon(
            configuration: options.configuration, client: client, metadataClient: metadataClient, journal: journal,
            stateDirectory: options.stateDirectory?.directory, time: time,
            random: random, logger: logger, announce: options.announce, notifications: hub, logLinesDropped: { logOutput.droppedLines },
            resumePosition: { [keeper = BookmarkKeeper(bookmarks)] in await keeper.resumePosition(for: $0.heartbeat) },
            beaconsEnabled: { beacons.isEnabled })
        self.daemon = daemon
        self.reporters = reporters
        self.privacy = privacy
        let lines = ControlProtocol(daemon: daemon, events: events, reporters: reporters, player: player)
        self.lines = lines
        telemetry.bind(audit: daemon.audit) { [metrics] in
            String(decoding: await metrics?.exposition(status: lines.statusReport) ?? [], as: UTF8.self)
        }
        self.events = events
        self.metrics = metrics
        self.notifier = notifier
        self.logger = logger
        self.metricsAddress = options.metricsAddress
        self.clients = [client, metadataClient] + reporterClients
        self.logOutput = logOutput
        self.quiet = options.configuration.quiet
    }

    /// The installation id and privacy status in the state directory; in memory without one, or
    /// when the directory's files cannot be written.
    private static func reporterState(
        in directory: StateDirectoryLock?, logger: Logger, using random: inout some RandomNumberGenerator
    ) -> any ReporterStateStore {
        guard let directory else { return InMemoryReporterState(installationID: InstallationID.make(using: &random)) }
        do throws(StateDirectoryLockError) {
            // Only the daemon that holds the directory writes in it.
            try directory.acquire()
        } catch {
            logger.warning("the installation id and privacy status are kept in memory until the next start: \(error)")
            return InMemoryReporterState(installationID: InstallationID.make(using: &random))
        }
        var problem: ReporterStateError?
        let files = ReporterStateFiles(directory: directory.directory, using: &random, problem: &problem)
        if let problem {
            logger.warning("the installation id is kept in memory until the next start: \(problem)")
        }
        return files
    }

    /// Runs the reporters, quiet as configured, until each has sent what it had to send after the
    /// daemon's last notification (within the drain timeout): run it beside the daemon.
    package func runReporters() async {
        await reporters.setQuiet(quiet)
        async let kept: Void = privacy.run()
        await reporters.run()
        await kept
    }

    /// Sends every log line of the process to stderr through one buffer, at `level` until a
    /// logger sets its own. Once per process, before the first logger.
    package static func startLogging(style: LineLogHandler.Style, level: SharedLogLevel) -> LogOutput {
        let output = LogOutput.standardError(style: style)
        LoggingSystem.bootstrap { LineLogHandler(component: $0, level: level, style: style, output: output.append) }
        return output
    }

    /// Starts serving metrics, their gauges refreshed from the daemon's status at each scrape;
    /// nil when metrics were not asked for.
    /// - Throws: ``HTTPServerError`` when the address cannot be bound.
    package func serveMetrics(logger: Logger) async throws -> HTTPServer? {
        guard let metricsAddress, let metrics else { return nil }
        let server = try await metrics.serve(at: metricsAddress) { [lines] in await lines.statusReport() }
        logger.info("serving metrics url=\(server.baseURL)\(MetricsEndpoint.path)")
        if !metricsAddress.isLoopback {
            logger.warning("metrics are reachable from other hosts address=\(metricsAddress)")
        }
        return server
    }

    /// The control socket at `path`, answering through ``lines``; bind and run it.
    package func controlSocket(path: String) -> ControlSocketServer {
        ControlSocketServer(
            path: path, logger: logger.operation("socket", component: "control"),
            responder: { [lines] line, client in await lines.reply(to: line, from: client) },
            clientLeft: { [lines] client in await lines.inputEnded(from: client) })
    }

    /// After the daemon's `run()` returned: ends the HTTP clients and writes out the log.
    package func shutdown() async {
        for client in clients { await client.shutdown() }
        await logOutput.flush(timeout: .seconds(2))
    }
}

/// Where bookmarks go without a state directory (the demo): nowhere, each save an error counted
/// by the heartbeat, each lookup none.
private struct UnkeptBookmarks: BookmarkStore {
    func saveBookmark(contentID: String, position: Milliseconds, savedAt: Milliseconds) throws(JournalError) {
        throw JournalError(reason: "no state directory")
    }

    func bookmark(contentID: String) throws(JournalError) -> Milliseconds? { nil }
}
