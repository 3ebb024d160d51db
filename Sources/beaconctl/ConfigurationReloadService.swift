import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Logging
import ServiceLifecycle
import UnixSignals

/// Re-reads the configuration at each SIGHUP, until graceful shutdown: the same file the daemon
/// started with, under the same flags and environment, which keep their precedence. What may change
/// at run time is applied at once (see ``SettingsReload``); an invalid file is logged and the
/// running configuration kept.
struct ConfigurationReloadService: Service {
    /// SIGHUP, trapped from start-up on, so that one sent early does not end the process.
    let hangups: UnixSignalsSequence
    let flags: SettingsLayer
    let file: ConfigurationFile.Location?
    let environment: [String: String]
    let settings: Settings
    let logLevel: SharedLogLevel
    let daemon: BeaconDaemon
    let reporters: ReporterRegistry
    let logger: Logger

    func run() async {
        var running = settings
        for await _ in hangups.cancelOnGracefulShutdown() {
            running = await reload(over: running)
        }
    }

    private func reload(over running: Settings) async -> Settings {
        guard let file else {
            logger.notice("SIGHUP: the daemon started without a configuration file, nothing to re-read")
            return running
        }
        let reloaded: Settings
        do {
            reloaded = try SettingsLoader.load(flags: flags, configFile: (file.path, file.namedBy), environment: environment).settings
        } catch {
            logger.error("configuration reload failed, keeping the running configuration file=\(file.path) reason=\"\(error)\"")
            return running
        }
        let reload = SettingsReload(running: running, reloaded: reloaded)
        logLevel.level = reload.settings.logLevel
        await daemon.apply(reload.settings.runtime)
        await reporters.setQuiet(reload.settings.quiet)
        logger.notice("configuration reloaded: \(reload.changed.isEmpty ? "nothing changed" : reload.changed.joined(separator: ", ")) file=\(file.path)")
        if !reload.needRestart.isEmpty {
            logger.warning(
                "configuration reload: these settings need a restart to change and keep their running value keys=\(reload.needRestart.map(\.qualifiedName).joined(separator: ","))")
        }
        if reload.settings.isDebugLogging && !running.isDebugLogging {
            logger.warning("\(reload.settings.debugLoggingWarning)")
        }
        return reload.settings
    }
}
