import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconStorage
import BeaconTerminal
import Logging
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: start a session, poll its metadata, fire beacons as the player plays.",
        discussion: """
            With --media-url a session starts at once; without it the daemon idles until a \
            'load <media-url>' line arrives. When a session is ready, one JSON line \
            {"manifestUrl", "trackingUrl", "sessionId"} is printed on stdout: the player must play that manifest.

            Input lines, on stdin (--stdin) and on the control socket:
              <epoch-ms> | playhead <epoch-ms> | playhead <ISO-8601>
              {"playhead": <epoch-ms>, "at": <wall-clock epoch-ms>, "rate": <x>}
              position <seconds> | {"position": <seconds>, "at": <wall-clock epoch-ms>, "rate": <x>}
                (media time: the player's currentTime, for VOD and streams without program date time)
              load <media-url> | unload | play | pause | complete | seek-start | seek-end
              buffer-start | buffer-end | rate <x>
              mute | unmute | skip | rewind | expand | collapse | click
              load <media-url> {"adsParams": {...}, "content": {...}, "heartbeat": {...}}
              content {"id", "name", "length" (s, -1 live), "streamType": "vod"|"live"|"linear", <metadata>...}
              chapter-start {"index" (from 1), "offset" (s), "length" (s), "name"} | chapter-end | chapter-skip
              bitrate <bps> | qos {"bitrate", "droppedFrames", "fps", "startupTime" (ms)}   (also in a JSON tick)
              error player <id> [message] | error application <id> [message]
              state-start <name> | state-end <name> | privacy optin|optout|unknown
              status   (replies with the status JSON)
              events | events follow [N]   (the event history; on the socket, follow streams new entries)
              reporter list | reporter enable NAME | reporter disable NAME
                (NAME: beacons, media-analytics, heartbeat, telemetry; disabled, beacons are computed and not sent)

            Every beacon delivery and the session are journaled in --state-dir: after a restart, a 'load' of \
            the same session (or --media-url) resumes it, and beacons still due are sent; none is sent twice, \
            but for a request in flight when the process died. Failed requests are retried (connection \
            errors, timeouts, HTTP 5xx and 429) with backoff, up to --beacon-max-age, counted on the \
            monotonic clock: a wall-clock step moves no schedule. One daemon per --state-dir: a second \
            one exits with status 73 (EX_CANTCREAT), naming the process that holds it.

            SIGTERM, SIGINT and the end of stdin drain: what is due now gets --drain-timeout to finish, \
            beacons waiting for a retry stay due in the journal, then exit 0. SIGHUP re-reads the config \
            file and applies log-level, debug-tracking, quiet, metadata-interval, retention and \
            beacon-max-age at once (quiet for every reporter); other settings, the reporters' included, need a \
            restart; an invalid file is logged and ignored.

            Settings: each flag below but --stdin and --config may also come from the environment variable \
            it names (BEACONCTL_<KEY>) or from the TOML config file (key = the flag's name without '--'; a \
            reporter's keys may also go without its prefix in its table: endpoint in [media-analytics]). \
            Flags win over the environment, which wins over the file, which wins over the defaults. The file \
            is --config, else $BEACONCTL_CONFIG, else /etc/beaconctl/beaconctl.toml when it exists. \
            'beaconctl config check' shows the effective settings. An invalid setting, an unknown key or \
            malformed TOML exits with status 78 (EX_CONFIG) and one line naming the key: nothing starts.
            """
    )

    @Flag(name: .customLong("stdin"), help: "Read input lines from standard input; its end drains and exits.")
    var readStandardInput = false

    @OptionGroup var socket: SocketOption

    @OptionGroup var options: SettingsOptions

    // Beside the other settings rather than inside them: in a debug build the parser checks each
    // nested group again for every level above it, which tripled a daemon's start.
    @OptionGroup var mediaAnalytics: MediaAnalyticsSettingsOptions

    @OptionGroup var heartbeat: HeartbeatSettingsOptions

    @OptionGroup var telemetry: TelemetrySettingsOptions

    func run() async throws {
        // A reader gone (a control client mid-reply, a closed stdout) is an error to handle, never the end.
        signal(SIGPIPE, SIG_IGN)
        // Trapped from the start: a SIGHUP sent while the daemon starts must not end it either.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        ProcessFootprint.minimize()
        let environment = ProcessInfo.processInfo.environment
        let style = LineLogHandler.Style(environment: environment)
        var flags = options.layer(socket: socket.socket)
        mediaAnalytics.add(to: &flags)
        heartbeat.add(to: &flags)
        telemetry.add(to: &flags)
        let loaded: SettingsLoader.Loaded
        do {
            loaded = try SettingsLoader.load(flags: flags, configFile: options.config.map { ($0, "flag --config") }, environment: environment)
        } catch {
            throw InvalidConfiguration.report(error, style: style)
        }
        let settings = loaded.settings
        let stateDirectory = settings.stateDir
        // One daemon per state directory, before anything is started or bound. A directory that
        // cannot be locked yet (unwritable) is the journal's to report and retry: it locks first.
        let lock = StateDirectoryLock(directory: stateDirectory)
        do throws(StateDirectoryLockError) {
            try lock.acquire()
        } catch {
            if case .held = error.kind {
                StandardOutput.writeError("\(style == .journald ? "<3>" : "")beaconctl: \(error); exiting")
                throw ExitCode(StateDirectoryLock.exitStatus)
            }
        }
        let logLevel = SharedLogLevel(settings.logLevel)
        let logOutput = DaemonRuntime.startLogging(style: style, level: logLevel)
        var runtimeOptions = DaemonRuntime.Options(
            configuration: settings.daemonConfiguration(version: Beaconctl.version),
            http: settings.httpClientConfiguration(userAgent: Settings.userAgent(version: Beaconctl.version)))
        runtimeOptions.stateDirectory = lock
        runtimeOptions.metricsAddress = settings.metricsAddress
        runtimeOptions.environment = environment
        runtimeOptions.announce = StandardOutput.writeLine
        runtimeOptions.reporters = DaemonRuntime.reporters(configuredBy: settings)
        runtimeOptions.exportsMetrics = settings.telemetry.isConfigured
        runtimeOptions.auditBounds = settings.auditBounds
        LargeAllocations.keepOnOwnPages()
        let runtime = DaemonRuntime(runtimeOptions, logOutput: logOutput)
        let daemon = runtime.daemon
        let logger = runtime.logger
        var startup = logger.operation("init")
        if let file = loaded.file { startup.info("configuration read file=\(file.path)") }
        if settings.isDebugLogging {
            startup.logLevel = min(startup.logLevel, .warning)
            startup.warning("\(settings.debugLoggingWarning)")
        }
        startup.info("journal of beacon deliveries and sessions directory=\(stateDirectory)")
        // The notifier goes first so that it stops last: the watchdog is petted through the drain.
        var services: [any Service] = runtime.notifier.map { [SystemdNotifierService(notifier: $0, daemon: daemon)] } ?? []
        if let server = try await runtime.serveMetrics(logger: startup) {
            services.append(server)
        }
        let controlSocket = runtime.controlSocket(path: settings.socket)
        try await controlSocket.bind()
        startup.info("listening on control socket path=\(settings.socket)")

        // Any service ending ends them all gracefully: the end of stdin drains like SIGTERM does.
        // They shut down in reverse order, so the daemon drains after input has stopped, and
        // metrics are served until it has drained.
        // The reporters stop after the daemon: they send what its last notifications asked for.
        services += [ReportersService(runtime: runtime), daemon, ControlSocketService(server: controlSocket)]
        if readStandardInput { services.append(StandardInputService(lines: runtime.lines)) }
        var reloadLogger = logger.operation("reload")
        // What a reload did is always shown, whatever the log level.
        reloadLogger.logLevel = .notice
        services.append(
            ConfigurationReloadService(
                hangups: hangups, flags: flags, file: loaded.file, environment: environment, settings: settings, logLevel: logLevel,
                daemon: daemon, reporters: runtime.reporters, logger: reloadLogger))
        var groupLogger = Logger(label: "lifecycle")
        groupLogger.logLevel = .warning
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map { service in
                    .init(
                        service: service, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "\(type(of: service))")
                },
                gracefulShutdownSignals: [.sigterm, .sigint], logger: groupLogger))
        var failure: (any Error)?
        do { try await group.run() } catch { failure = error }
        await runtime.shutdown()
        if let failure { throw failure }
    }
}

/// Serves the control socket until graceful shutdown.
struct ControlSocketService: Service {
    let server: ControlSocketServer

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await server.run() }
    }
}

/// Runs the reporters beside the daemon. The graceful shutdown's signal does not stop them: each
/// reporter ends after the daemon's last notification, once what that asked for went out (within
/// the drain timeout). The service then returns when its turn to stop comes, after the daemon's.
struct ReportersService: Service {
    let runtime: DaemonRuntime

    func run() async {
        await runtime.runReporters()
        try? await gracefulShutdown()
    }
}

/// Reports readiness, status and liveness to systemd until graceful shutdown. Liveness is the
/// daemon answering a status request, so a hung daemon stops the watchdog petting.
struct SystemdNotifierService: Service {
    let notifier: SystemdNotifier<ContinuousClock>
    let daemon: BeaconDaemon

    func run() async {
        await cancelWhenGracefulShutdown { await notifier.probeUntilCancelled { await daemon.statusReport() } }
    }
}

/// Feeds standard input to the daemon; its end ends the service, which shuts the group down gracefully.
/// Replies are dropped: a session's JSON line reaches stdout anyway and refusals are logged. A
/// recorded feed piped in at once is judged against its session's metadata: the first lines wait
/// for the session of `--media-url`, the lines after a `load` for that one's. The
/// player notifications of a playback loaded on stdin (or from --media-url) are written to stdout
/// meanwhile, next to the session's JSON line.
struct StandardInputService: Service {
    let lines: ControlProtocol

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask {
                        for await line in lines.player.standardOutputLines { StandardOutput.writeLine(line) }
                    }
                    defer { group.cancelAll() }
                    await lines.daemon.waitUntilSettled()
                    try await StandardInputLines().run { line in
                        // A line answered may be a `load`: the lines after it wait for its session's
                        // first metadata, as the first lines wait at start.
                        if await lines.handle(line, from: .standardInput) != nil { await lines.daemon.waitUntilSettled() }
                    }
                    await lines.inputEnded(from: .standardInput)
                }
            }
        } catch is CancellationError {
            // SIGTERM while stdin is still open cancels the read: the drain goes on, exit status 0.
        }
    }
}
