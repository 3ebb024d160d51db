import ArgumentParser
import BeaconDomain
import BeaconHTTP
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Logging

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

    @Flag(help: "Play the ad break as an HLS interstitial: the player tells the interstitial's start, assets, positions and end (harmonic only).")
    var interstitials = false

    @Flag(help: "Also show the daemon's log lines.")
    var verbose = false

    @OptionGroup var socket: SocketOption

    @OptionGroup var metrics: MetricsOption

    func validate() throws {
        if let duration, !(duration.isFinite && duration > 0 && duration <= 3600) {
            throw ValidationError("--duration must be between 0 and 3600 seconds")
        }
        if interstitials, dialect != .harmonic { throw ValidationError("--interstitials plays the simulated Harmonic service only") }
    }

    func run() async throws {
        let logOutput = DaemonRuntime.startLogging(style: .human, level: SharedLogLevel(verbose ? .info : .error))
        let startedAt = WallClock.now()
        let out = StandardOutput.writeLine
        let screen = DemoScreen(startedAt: startedAt, out: out)
        let service = try await DemoService.start(dialect, collected: screen.collected)
        let adBreak = service.adBreak
        out("beaconctl demo: simulated \(dialect == .mediatailor ? "MediaTailor" : "ad-insertion") service on \(service.server.baseURL)")
        out("  ad break \(adBreak.id): \(DemoService.adCount) ads of \(UTCTime.formatSpan(DemoService.adDuration)), starts in \(UTCTime.formatSpan(adBreak.startTime - startedAt))")
        if interstitials {
            out("  played as an HLS interstitial: the main player stops at its date, a second one plays one asset per ad")
        }
        out("  the player pauses and mutes 2 s into the first ad, resumes 1.5 s later")
        out("  media analytics: simulated Media Collection API on \(service.collection.endpoint) (pings counted, not shown)")

        let userAgent = Settings.userAgent(version: Beaconctl.version) + " demo"
        var configuration = DaemonConfiguration(version: Beaconctl.version, macros: MacroSettings(deviceUserAgent: userAgent))
        configuration.dialect = dialect
        configuration.metadataInterval = .seconds(1)
        var options = DaemonRuntime.Options(configuration: configuration, http: CurlHTTPClient.Configuration(userAgent: userAgent))
        options.metricsAddress = metrics.metricsAddress
        options.subscribers = [screen]
        // The media-analytics reporter sends to the simulated Media Collection API.
        var reporting = Settings(defaultSocket: socket.path)
        reporting.mediaAnalytics = DemoService.mediaAnalytics(endpoint: service.collection.endpoint)
        options.reporters = DaemonRuntime.reporters(configuredBy: reporting)
        let runtime = DaemonRuntime(options, logOutput: logOutput)
        let daemon = runtime.daemon
        let metricsServer = try await runtime.serveMetrics(logger: runtime.logger)
        if let metricsServer {
            out("  metrics: curl -s \(metricsServer.baseURL)\(MetricsEndpoint.path) | grep beaconctl_")
        }
        // The demo answers 'beaconctl status' like a daemon, unless a real one holds the socket.
        let controlSocket = runtime.controlSocket(path: socket.path)
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
        let end = duration.map { startedAt + Milliseconds($0 * 1000) } ?? adBreak.startTime + adBreak.duration + 3000
        // The schedule is read before the drain ends the session; the counters after it.
        let played = await withDiscardingTaskGroup { group in
            if listening { group.addTask { try? await controlSocket.run() } }
            let played = await withDiscardingTaskGroup { playback in
                playback.addTask { await daemon.run() }
                playback.addTask { await runtime.runReporters() }
                // A load, as a player gives it, tells the reporters a playback begins.
                _ = await runtime.lines.handle(.text("load \(service.mediaURL)" + (interstitials ? #" {"interstitials": true}"# : "")))
                await SimulatedPlayer(adBreak: adBreak, interstitials: interstitials).play(until: end) { line in _ = await runtime.lines.handle(.text(line)) }
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
        await runtime.shutdown()
        let counts = screen.counts
        out("")
        out("summary: \(counts[.done, default: 0]) tracking events done, \(counts[.failed, default: 0]) failed; "
            + "\(counters.beaconsSent) beacons sent, \(service.receivedBeacons().count) received by the sink; "
            + "\(counters.ticks) ticks, \(counters.metadataFetches) metadata fetches")
        let calls = service.collection.exchanges()
        out("media analytics: \(calls.filter(\.isTaken).count) calls taken by the simulated Media Collection API (\(screen.pingsTaken) pings), "
            + "\(calls.filter { !$0.isTaken }.count) refused, \(service.collection.violations().count) of them the reporter's fault")
        for ad in played.adBreaks.flatMap(\.ads) {
            let unfired = ad.trackingEvents.filter { $0.reportingState == .idle }.map(\.event.rawValue)
            if !unfired.isEmpty {
                out("  not fired in \(ad.id) (the simulated viewer did not do these): \(unfired.joined(separator: " "))")
            }
        }
    }
}
