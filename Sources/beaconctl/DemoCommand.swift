import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconHTTP
import BeaconStorage
import BeaconSimulator
import Logging
import Synchronization

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Watch beaconctl work, with no network: a simulated ad service and player on loopback.",
        discussion: """
            Starts, in this process, a simulated ad-insertion service on 127.0.0.1 (session init, live \
            metadata with one ad break a few seconds ahead, a beacon sink) and a simulated player that \
            plays at 1x, pauses and mutes during the first ad. The real daemon pipeline runs against them \
            over real HTTP and shows each beacon as it fires. Ends after the ad break, or after --duration. \
            With --dialect mediatailor the service is a simulated MediaTailor (JSON session init, a tracking \
            document in pages chained by nextToken, breakStart and breakEnd tracking).
            """
    )

    @Option(help: ArgumentHelp("Seconds to run instead of ending after the ad break.", valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp("harmonic or mediatailor: the simulated ad-insertion service (default harmonic).", valueName: "dialect"))
    var dialect: Dialect = .harmonic

    @Flag(help: "Also show the daemon's log lines.")
    var verbose = false

    @OptionGroup var socket: SocketOption

    @OptionGroup var metrics: MetricsOption

    func validate() throws {
        if let duration, !(duration.isFinite && duration > 0 && duration <= 3600) {
            throw ValidationError("--duration must be between 0 and 3600 seconds")
        }
    }

    func run() async throws {
        let logLevel: Logger.Level = verbose ? .info : .error
        let logOutput = LogOutput.standardError(style: .human)
        LoggingSystem.bootstrap { LineLogHandler(component: $0, logLevel: logLevel, output: logOutput.append) }
        let service = try await DemoService.start(dialect)
        let pod = service.pod
        let startedAt = WallClock.now()
        let out = StandardOutput.writeLine
        out("beaconctl demo: simulated \(dialect == .mediatailor ? "MediaTailor" : "ad-insertion") service on \(service.server.baseURL)")
        out("  ad break \(pod.id): \(DemoService.adCount) ads of \(UTCTime.formatSpan(DemoService.adDuration)), starts in \(UTCTime.formatSpan(pod.startTime - startedAt))")
        out("  the player pauses and mutes 2 s into the first ad, resumes 1.5 s later")

        let userAgent = Settings.userAgent(version: Beaconctl.version) + " demo"
        var configuration = DaemonConfiguration(version: Beaconctl.version, macros: MacroSettings(deviceUserAgent: userAgent))
        configuration.mediaURL = service.mediaURL
        configuration.dialect = dialect
        configuration.metadataInterval = .seconds(1)
        let client = CurlHTTPClient(userAgent: userAgent)
        let tally = Mutex<[ReportingState: Int]>([:])
        let metricsEndpoint = MetricsOption.makeEndpoint(for: metrics.metricsAddress)
        let daemon = BeaconDaemon(
            configuration: configuration, client: client, logger: Logger(label: "daemon"),
            notify: { notification in
                metricsEndpoint?.metrics.record(notification)
                switch notification {
                case .sessionReady(let endpoints):
                    out("session ready   sessionId \(endpoints.sessionId ?? "-")")
                    out("  manifest      \(endpoints.manifestUrl)")
                    out("  tracking      \(endpoints.trackingUrl)")
                    out("")
                    out("   time  event            ad                 ad break       result")
                case .sessionFailed(_, let reason):
                    out("session failed: \(reason)")
                case .beaconsDelivered(let firing, let results, let state):
                    tally.withLock { $0[state, default: 0] += 1 }
                    let outcome = results.map(Self.describe).joined(separator: ", ")
                    let elapsed = UTCTime.formatSpan(WallClock.now() - startedAt)
                    out("  \(Self.pad(elapsed, 6)) \(Self.pad(firing.event.rawValue, 16)) \(Self.pad(firing.adID, 18)) \(Self.pad(firing.podID, 14)) \(outcome)")
                default:
                    break
                }
            })
        let metricsServer = try await MetricsOption.serve(metricsEndpoint, at: metrics.metricsAddress, of: daemon, logger: Logger(label: "daemon"))
        if let metricsServer {
            out("  metrics: curl -s \(metricsServer.baseURL)\(MetricsEndpoint.path) | grep beaconctl_")
        }
        // The demo answers 'beaconctl status' like a daemon, unless a real one holds the socket.
        let controlSocket = ControlSocketServer(
            path: socket.path, responder: { line, client in await daemon.reply(to: line, from: client) },
            clientLeft: { client in await daemon.inputEnded(from: client) })
        let listening: Bool
        do {
            try await controlSocket.bind()
            listening = true
            out("  while it runs, look inside: beaconctl status" + (socket.socket.map { " --socket \($0)" } ?? ""))
        } catch {
            listening = false
            out("  (no control socket for the demo: \(error))")
        }
        out("")
        let end = duration.map { startedAt + Milliseconds($0 * 1000) } ?? pod.startTime + pod.duration + 3000
        // The schedule is read before the drain ends the session; the counters after it.
        let played = await withDiscardingTaskGroup { group in
            if listening { group.addTask { try? await controlSocket.run() } }
            let played = await withDiscardingTaskGroup { playback in
                playback.addTask { await daemon.run() }
                await SimulatedPlayer(pod: pod).play(until: end) { line in _ = await daemon.handle(.text(line)) }
                let played = await daemon.statusReport()
                daemon.stop()
                return played
            }
            group.cancelAll()
            return played
        }
        let counters = await daemon.statusReport().counters
        await metricsServer?.stop()
        await service.stop()
        await client.shutdown()
        await logOutput.flush(timeout: .seconds(2))
        let counts = tally.withLock { $0 }
        out("")
        out("summary: \(counts[.done, default: 0]) tracking events done, \(counts[.failed, default: 0]) failed; "
            + "\(counters.beaconsSent) beacons sent, \(service.receivedBeacons().count) received by the sink; "
            + "\(counters.ticks) ticks, \(counters.metadataFetches) metadata fetches")
        for ad in played.adBreaks.flatMap(\.ads) {
            let unfired = ad.trackingEvents.filter { $0.reportingState == .idle }.map(\.event.rawValue)
            if !unfired.isEmpty {
                out("  not fired in \(ad.id) (the simulated viewer did not do these): \(unfired.joined(separator: " "))")
            }
        }
    }

    private static func describe(_ result: BeaconSender.Result) -> String {
        switch result.outcome {
        case .answered(let status): "HTTP \(status) in \(result.latencyMilliseconds) ms"
        case .failed(let reason): "failed: \(reason)"
        case .refused(let reason): "refused: \(reason)"
        case .notSent: "not sent (quiet)"
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
