import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal

/// The flags of `beaconctl run` that are settings: each may also come from `BEACONCTL_<KEY>` or the
/// config file, so none has a default here. Values stay text until `Settings` validates them, so a
/// bad flag value is refused like a bad file value (exit 78, one line).
struct SettingsOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp("TOML config file (default: /etc/beaconctl/beaconctl.toml when it exists).", valueName: "file"))
    var config: String?

    @Option(name: .customLong("media-url"), help: settingHelp("Stream URL (HLS master playlist) to start a session for at once.", .mediaURL, valueName: "url"))
    var mediaURL: String?

    @Option(name: .customLong("tracking-url"), help: settingHelp("Metadata URL to poll, skipping session init (needs --media-url).", .trackingURL, valueName: "url"))
    var trackingURL: String?

    @Option(name: .customLong("metadata-interval"), help: settingHelp("Seconds between metadata requests (default 2).", .metadataInterval, valueName: "seconds"))
    var metadataInterval: String?

    @Option(name: .customLong("retention"), help: settingHelp("Seconds to remember pods gone from the metadata, after they end (default 7200).", .retention, valueName: "seconds"))
    var retention: String?

    @Option(name: .customLong("drain-timeout"), help: settingHelp("Seconds in-flight beacons may take to finish at shutdown (default 5).", .drainTimeout, valueName: "seconds"))
    var drainTimeout: String?

    @Option(name: .customLong("state-dir"), help: settingHelp("Directory of the journal of beacon deliveries and sessions (default $STATE_DIRECTORY, /var/lib/beaconctl for root, else ~/.local/state/beaconctl).", .stateDir, valueName: "dir"))
    var stateDir: String?

    @Option(name: .customLong("beacon-max-age"), help: settingHelp("Seconds after it became due that a beacon is still retried, then given up (default 900).", .beaconMaxAge, valueName: "seconds"))
    var beaconMaxAge: String?
    @Option(name: .customLong("http-timeout"), help: settingHelp("Seconds one HTTP request (session init, metadata, beacon) may take in all, redirects included (default 10, at most 300).", .httpTimeout, valueName: "seconds"))
    var httpTimeout: String?

    @Flag(name: .customLong("quiet"), inversion: .prefixedNo, help: settingHelp("Compute everything but send no beacon (events become done, logged as not sent).", .quiet))
    var quiet: Bool?

    @Option(name: .customLong("log-level"), help: settingHelp("trace, debug, info, notice, warning, error or critical (default info).", .logLevel, valueName: "level"))
    var logLevel: String?

    @Flag(name: .customLong("debug-tracking"), inversion: .prefixedNo, help: settingHelp("Log every beacon and metadata line, debug ones included (each URL as requested, each metadata body size), whatever the log level. Not for production.", .debugTracking))
    var debugTracking: Bool?

    @Option(name: .customLong("metrics-address"), help: settingHelp("Serve metrics on PORT (127.0.0.1) or HOST:PORT (default: off).", .metricsAddress, valueName: "address"))
    var metricsAddress: String?

    @Option(name: .customLong("ifa"), help: settingHelp("The device's advertising identifier, sent in the [IFA] macro of signaling URLs, never logged (default: empty).", .ifa, valueName: "id"))
    var ifa: String?

    @Option(name: .customLong("ifa-type"), help: settingHelp("What kind of identifier --ifa is (rida, aaid, idfa, sessionid...), sent in [IFATYPE] (default: empty).", .ifaType, valueName: "type"))
    var ifaType: String?

    @Flag(name: .customLong("limit-ad-tracking"), inversion: .prefixedNo, help: settingHelp("The user limited ad tracking: [LIMITADTRACKING] is 1 and [IFA] empty.", .limitAdTracking))
    var limitAdTracking: Bool?

    @Option(name: .customLong("dialect"), help: settingHelp("harmonic, mediatailor or auto: the ad-insertion service's session init and tracking document (default auto: decided per session).", .dialect, valueName: "dialect"))
    var dialect: String?

    @Flag(name: .customLong("is-init-request"), inversion: .prefixedNo, help: settingHelp("Harmonic session init starts with a POST to the media URL (default on); --no-is-init-request skips it for a service that does not take it.", .isInitRequest))
    var isInitRequest: Bool?

    @Flag(name: .customLong("sgai"), inversion: .prefixedNo, help: settingHelp("MediaTailor sessions are server-guided ad insertion (HLS interstitials) asking for client-side reporting: no tracking URL, each asset list carries its tracking (default off; a load's {\"sgai\": true} asks for one playback).", .sgai))
    var sgai: Bool?

    @Option(name: .customLong("instance"), help: settingHelp("This daemon's name among several on one box (the templated unit's instance); the telemetry's instance id derives from it (default: default).", .instance, valueName: "name"))
    var instance: String?

    @Option(name: .customLong("audit-max-age"), help: settingHelp("Seconds the audit keeps a record (default 604800: 7 days, at most 90 days).", .auditMaxAge, valueName: "seconds"))
    var auditMaxAge: String?

    @Option(name: .customLong("audit-max-size"), help: settingHelp("The audit's size at most, in bytes or KiB, MiB, GiB (default 32MiB).", .auditMaxSize, valueName: "bytes"))
    var auditMaxSize: String?

    /// The settings given as flags; `socket` is the shared `--socket` option.
    func layer(socket: String?) -> SettingsLayer {
        var layer = SettingsLayer(source: .flag)
        let texts: [(SettingKey, String?)] = [
            (.mediaURL, mediaURL), (.trackingURL, trackingURL), (.socket, socket), (.metadataInterval, metadataInterval),
            (.retention, retention), (.drainTimeout, drainTimeout), (.stateDir, stateDir), (.beaconMaxAge, beaconMaxAge),
            (.httpTimeout, httpTimeout), (.logLevel, logLevel), (.metricsAddress, metricsAddress), (.ifa, ifa), (.ifaType, ifaType),
            (.dialect, dialect), (.instance, instance), (.auditMaxAge, auditMaxAge), (.auditMaxSize, auditMaxSize),
        ]
        for case (let key, let text?) in texts { layer.values[key] = .text(text) }
        for case (let key, let flag?) in [(SettingKey.quiet, quiet), (.debugTracking, debugTracking), (.limitAdTracking, limitAdTracking), (.isInitRequest, isInitRequest), (.sgai, sgai)] { layer.values[key] = .boolean(flag) }
        return layer
    }
}

/// A setting flag's help, naming the environment variable that also sets it.
func settingHelp(_ abstract: String, _ key: SettingKey, valueName: String? = nil) -> ArgumentHelp {
    ArgumentHelp("\(abstract) Env: \(key.environmentVariable).", valueName: valueName)
}
