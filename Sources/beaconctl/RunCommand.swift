import ArgumentParser
import BeaconCore
import Logging
import ServiceLifecycle

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
              load <media-url> | unload | play | pause | complete | seek-start | seek-end
              buffer-start | buffer-end | rate <x>
              mute | unmute | skip | rewind | expand | collapse | click
              status   (replies with the status JSON)

            SIGTERM, SIGINT and the end of stdin drain: in-flight beacons get --drain-timeout to finish, then exit 0.
            """
    )

    @Option(help: ArgumentHelp("Stream URL (HLS master playlist) to start a session for at once.", valueName: "url"))
    var mediaUrl: String?

    @Option(help: ArgumentHelp("Metadata URL to poll, skipping session init (needs --media-url).", valueName: "url"))
    var trackingUrl: String?

    @Flag(name: .customLong("stdin"), help: "Read input lines from standard input; its end drains and exits.")
    var readStandardInput = false

    @OptionGroup var socket: SocketOption

    @Option(help: ArgumentHelp("Seconds between metadata requests.", valueName: "seconds"))
    var metadataInterval: Double = 2

    @Option(help: ArgumentHelp("Seconds to remember pods gone from the metadata, after they end.", valueName: "seconds"))
    var retention: Double = 7200

    @Option(help: ArgumentHelp("Seconds in-flight beacons may take to finish at shutdown.", valueName: "seconds"))
    var drainTimeout: Double = 5

    @Flag(help: "Compute everything but send no beacon (events become done, logged as not sent).")
    var quiet = false

    func validate() throws {
        for (name, value) in [("--metadata-interval", metadataInterval), ("--retention", retention), ("--drain-timeout", drainTimeout)] {
            guard value.isFinite, value > 0, value <= 86_400 * 7 else {
                throw ValidationError("\(name) must be a number of seconds above 0 and at most a week")
            }
        }
        if trackingUrl != nil && mediaUrl == nil {
            throw ValidationError("--tracking-url needs --media-url (the stream the player plays)")
        }
        for url in [mediaUrl, trackingUrl].compactMap({ $0 }) {
            if let refusal = URLPolicy.refusal(of: url) { throw ValidationError("'\(url)': \(refusal)") }
        }
    }

    func run() async throws {
        ProcessFootprint.minimize()
        LoggingSystem.bootstrap { LineLogHandler(component: $0) }
        let logger = Logger(label: "daemon")
        var configuration = DaemonConfiguration(version: Beaconctl.version)
        configuration.mediaURL = mediaUrl
        configuration.trackingURL = trackingUrl
        configuration.metadataInterval = .milliseconds(Int64(metadataInterval * 1000))
        configuration.retention = .milliseconds(Int64(retention * 1000))
        configuration.drainTimeout = .milliseconds(Int64(drainTimeout * 1000))
        configuration.quiet = quiet

        let client = CurlHTTPClient(userAgent: "beaconctl/\(Beaconctl.version)")
        let daemon = BeaconDaemon(configuration: configuration, client: client, logger: logger, announce: StandardOutput.writeLine)
        let controlSocket = ControlSocketServer(path: socket.path) { line in await daemon.handle(line) }
        try await controlSocket.bind()
        logger.info("listening on control socket path=\(socket.path)")

        // Any service ending ends them all gracefully: the end of stdin drains like SIGTERM does.
        // They shut down in reverse order, so the daemon drains last, after input has stopped.
        var services: [any Service] = [daemon, ControlSocketService(server: controlSocket)]
        if readStandardInput { services.append(StandardInputService(daemon: daemon)) }
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
        await client.shutdown()
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

/// Feeds standard input to the daemon; its end ends the service, which shuts the group down gracefully.
/// Replies are dropped: a session's JSON line reaches stdout anyway and refusals are logged.
struct StandardInputService: Service {
    let daemon: BeaconDaemon

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            await daemon.waitUntilSettled()
            try await StandardInputLines().run { line in _ = await daemon.handle(line) }
        }
    }
}
