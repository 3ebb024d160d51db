import BeaconDomain
import BeaconHTTP
import BeaconStorage
import Logging

/// The settings of `beaconctl run`, merged from flags, environment, a config file and defaults,
/// and validated: a value of this type is always one the daemon may start with.
package struct Settings: Sendable, Equatable {
    /// Start a session for this stream at once; without it the daemon idles until `load`.
    package var mediaURL: String?
    /// Poll this metadata URL and skip session init.
    package var trackingURL: String?
    /// The control socket path.
    package var socket: String
    /// Seconds between metadata requests.
    package var metadataInterval: Double = 2
    /// Seconds ad breaks gone from the metadata are remembered after they end.
    package var retention: Double = 7200
    /// Seconds in-flight beacons get at shutdown.
    package var drainTimeout: Double = 5
    /// The directory of the journal of beacon deliveries and sessions.
    package var stateDir: String
    /// Seconds after it became due that a beacon is still retried.
    package var beaconMaxAge: Double = 900
    /// Seconds one HTTP request (session init, metadata, beacon) may take in all, redirects included.
    package var httpTimeout: Double = 10
    /// Compute everything, send no beacon.
    package var quiet = false
    package var logLevel: Logger.Level = .info
    /// Log every beacon and metadata line, debug ones included (each URL as it is requested, each
    /// metadata body size), whatever the log level.
    package var debugTracking = false
    /// Where the metrics endpoint listens; nil: no metrics endpoint.
    package var metricsAddress: MetricsAddress?
    /// The device's advertising identifier, for the `[IFA]` macro of signaling URLs; never logged.
    package var ifa = ""
    /// What kind of identifier `ifa` is, for `[IFATYPE]`.
    package var ifaType = ""
    /// The user limited ad tracking: `[LIMITADTRACKING]` is 1 and `[IFA]` empty.
    package var limitAdTracking = false
    /// The ad-insertion service spoken to; nil is `auto`: decided per session.
    package var dialect: Dialect?
    /// Harmonic session init starts with the POST the document describes; false skips it.
    package var isInitRequest = true
    /// Every MediaTailor session is a server-guided ad insertion (SGAI) session in client-side
    /// reporting, as a `load`'s `{"sgai": true}` asks for its playback alone.
    package var sgai = false
    /// This daemon's name among several on one box: the templated unit's instance (`%i`); the
    /// telemetry's `service.instance.id` is derived from it and the machine id.
    package var instance = "default"
    /// Seconds the audit keeps a record; older ones go first, counted.
    package var auditMaxAge = Settings.seconds(of: .milliseconds(AuditBounds.standard.maxAge))
    /// The audit's size in bytes, at most; the oldest records go first, counted.
    package var auditMaxSize = AuditBounds.standard.maxBytes
    /// The `[media-analytics]` table: configured when its endpoint is set.
    package var mediaAnalytics = MediaAnalyticsSettings()
    /// The `[heartbeat]` table: configured when its endpoint is set.
    package var heartbeat = HeartbeatSettings()
    /// The `[telemetry]` table: configured when its endpoint is set.
    package var telemetry = TelemetrySettings()
    /// Where each setting came from; a key not listed has its default.
    package var sources: [SettingKey: SettingSource] = [:]

    /// The defaults; the standard socket and state paths depend on the environment, so the caller gives them.
    package init(defaultSocket: String, defaultStateDir: String = StateDirectory.system) {
        socket = defaultSocket
        stateDir = defaultStateDir
    }

    package func source(of key: SettingKey) -> SettingSource {
        sources[key] ?? .defaultValue
    }

    /// Whether any log line is meant for debugging, not for production.
    package var isDebugLogging: Bool {
        debugTracking || logLevel <= .debug
    }

    /// The start-up (or reload) warning when `isDebugLogging`.
    package var debugLoggingWarning: String {
        "debug logging is on, not for production: it logs every beacon URL log-level=\(logLevel) debug-tracking=\(debugTracking)"
    }

    /// The longest time setting: a week.
    static let maxSeconds = 7.0 * 86_400
    /// The longest the audit may be kept: a quarter's disputes.
    static let maxAuditSeconds = 90.0 * 86_400
    /// The audit's size: from one day of a busy box to what a set-top box's flash can spare.
    static let auditSizes: ClosedRange<Int> = (64 << 10)...(4 << 30)
    /// The longest HTTP timeout: a request held longer is a stalled server, not a slow one.
    static let maxHTTPTimeout = 300.0

    /// Takes each key from the highest-precedence layer that has it, over the defaults, and validates
    /// each value and the whole; the error names the first bad key and its source.
    package static func resolve(
        _ layers: [SettingsLayer], defaultSocket: String, defaultStateDir: String = StateDirectory.system
    ) throws(ConfigurationError) -> Settings {
        var settings = Settings(defaultSocket: defaultSocket, defaultStateDir: defaultStateDir)
        let ordered = layers.sorted { $0.source.precedence < $1.source.precedence }
        for key in SettingKey.allCases {
            guard let layer = ordered.first(where: { $0.values[key] != nil }), let value = layer.values[key] else { continue }
            do {
                try settings.assign(value, to: key)
            } catch {
                throw ConfigurationError(key: key, source: layer.source, reason: error.reason)
            }
            settings.sources[key] = layer.source
        }
        if settings.trackingURL != nil && settings.mediaURL == nil {
            throw ConfigurationError(
                key: .trackingURL, source: settings.source(of: .trackingURL), reason: "needs media-url (the stream the player plays)")
        }
        return settings
    }

    /// Why a value does not fit its key.
    struct Refusal: Error {
        var reason: String
    }

    private mutating func assign(_ value: SettingValue, to key: SettingKey) throws(Refusal) {
        switch key {
        case .mediaURL: mediaURL = try Self.url(value)
        case .trackingURL: trackingURL = try Self.url(value)
        case .socket: socket = try Self.socketPath(value)
        case .metadataInterval: metadataInterval = try Self.seconds(value)
        case .retention: retention = try Self.seconds(value)
        case .drainTimeout: drainTimeout = try Self.seconds(value)
        case .stateDir: stateDir = try Self.directory(value)
        case .beaconMaxAge: beaconMaxAge = try Self.seconds(value)
        case .httpTimeout: httpTimeout = try Self.seconds(value, atMost: Self.maxHTTPTimeout, "300")
        case .quiet: quiet = try Self.boolean(value)
        case .debugTracking: debugTracking = try Self.boolean(value)
        case .logLevel: logLevel = try Self.level(value)
        case .metricsAddress: metricsAddress = try Self.address(value)
        case .ifa: ifa = try Self.identifier(value, maxBytes: 128)
        case .ifaType: ifaType = try Self.identifier(value, maxBytes: 32)
        case .limitAdTracking: limitAdTracking = try Self.boolean(value)
        case .dialect: dialect = try Self.dialect(value)
        case .isInitRequest: isInitRequest = try Self.boolean(value)
        case .sgai: sgai = try Self.boolean(value)
        case .instance:
            instance = try Self.identifier(value, maxBytes: 64)
            if instance.isEmpty { throw Refusal(reason: "must not be empty") }
        case .auditMaxAge: auditMaxAge = try Self.seconds(value, atMost: Self.maxAuditSeconds, "90 days")
        case .auditMaxSize: auditMaxSize = try Self.bytes(value, in: Self.auditSizes)
        case .mediaAnalyticsEndpoint, .mediaAnalyticsTrackingServer, .mediaAnalyticsReportSuite, .mediaAnalyticsOrgID,
            .mediaAnalyticsUserID, .mediaAnalyticsChannel, .mediaAnalyticsPlayerName, .mediaAnalyticsSSL,
            .mediaAnalyticsPingInterval, .mediaAnalyticsAdPingInterval, .mediaAnalyticsPublisher, .mediaAnalyticsJobID,
            .mediaAnalyticsOVP, .mediaAnalyticsSDK, .mediaAnalyticsQuiet, .mediaAnalyticsDebugLogging, .mediaAnalyticsPrivacyDefault,
            .mediaAnalyticsOfflineEnabled:
            try mediaAnalytics.assign(value, to: key)
        case .heartbeatEndpoint, .heartbeatConcurrencyEndpoint, .heartbeatSyncInterval, .heartbeatMaxAllowedFailures,
            .heartbeatRecordBookmark, .heartbeatMultiStreamMode, .heartbeatPlaybackStopOnPlaybackEnd,
            .heartbeatPostSlateDuration, .heartbeatTrackViewersCount, .heartbeatDeviceID, .heartbeatHeaders:
            try heartbeat.assign(value, to: key)
        case .telemetryEndpoint, .telemetryHeaders, .telemetryExportInterval, .telemetryLogInterval, .telemetryBatchSize,
            .telemetryResourceAttributes, .telemetryCompression:
            try telemetry.assign(value, to: key)
        }
    }

    /// An identifier sent in URLs: printable ASCII without spaces, at most `maxBytes` (an empty one unsets it).
    static func identifier(_ value: SettingValue, maxBytes: Int) throws(Refusal) -> String {
        let expected = "must be at most \(maxBytes) printable ASCII characters without spaces, in quotes"
        let identifier = try text(value, expected)
        guard identifier.utf8.count <= maxBytes, identifier.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Refusal(reason: expected)
        }
        return identifier
    }

    static func text(_ value: SettingValue, _ expected: String) throws(Refusal) -> String {
        guard case .text(let text) = value else { throw Refusal(reason: expected) }
        return text
    }

    static func url(_ value: SettingValue) throws(Refusal) -> String {
        let url = try text(value, "must be an http or https URL in quotes")
        if let refusal = URLPolicy.refusal(of: url) { throw Refusal(reason: refusal) }
        return url
    }

    private static func socketPath(_ value: SettingValue) throws(Refusal) -> String {
        let path = try text(value, "must be a path in quotes")
        guard !path.isEmpty, path.utf8.count <= UnixSocketPath.maxPathBytes else {
            throw Refusal(reason: "must be a path of 1 to \(UnixSocketPath.maxPathBytes) bytes")
        }
        return path
    }

    private static func directory(_ value: SettingValue) throws(Refusal) -> String {
        let path = try text(value, "must be a directory path in quotes")
        guard path.hasPrefix("/"), !path.utf8.contains(0) else { throw Refusal(reason: "must be an absolute directory path") }
        return path
    }

    /// A number of seconds above 0 (or at least 0 with `zeroAllowed`) and at most `limit`.
    static func seconds(
        _ value: SettingValue, atMost limit: Double = maxSeconds, _ limitText: String = "a week", zeroAllowed: Bool = false
    ) throws(Refusal) -> Double {
        guard let seconds = number(value), seconds.isFinite, zeroAllowed ? seconds >= 0 : seconds > 0, seconds <= limit else {
            throw Refusal(reason: "must be a number of seconds \(zeroAllowed ? "from 0" : "above 0") and at most \(limitText)")
        }
        return seconds
    }

    /// A number, written as one or as text.
    static func number(_ value: SettingValue) -> Double? {
        switch value {
        case .number(let number): number
        case .text(let text): Double(text)
        case .boolean, .table, .unsupported: nil
        }
    }

    static func boolean(_ value: SettingValue) throws(Refusal) -> Bool {
        switch value {
        case .boolean(let flag): return flag
        case .text(let text):
            switch text.lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: break
            }
        case .number, .table, .unsupported: break
        }
        throw Refusal(reason: "must be true or false")
    }

    private static func level(_ value: SettingValue) throws(Refusal) -> Logger.Level {
        let names = Logger.Level.allCases.map(\.rawValue)
        let expected = "must be one of \(names.joined(separator: ", "))"
        guard let level = Logger.Level(rawValue: try text(value, expected).lowercased()) else { throw Refusal(reason: expected) }
        return level
    }

    private static func dialect(_ value: SettingValue) throws(Refusal) -> Dialect? {
        let expected = "must be harmonic, mediatailor or auto"
        let name = try text(value, expected).lowercased()
        if name == "auto" { return nil }
        guard let dialect = Dialect(rawValue: name) else { throw Refusal(reason: expected) }
        return dialect
    }

    private static func address(_ value: SettingValue) throws(Refusal) -> MetricsAddress {
        let text: String
        switch value {
        case .text(let written): text = written
        // `metrics-address = 9100` in a file: a bare port.
        case .number(let port) where port == port.rounded() && abs(port) < 1e9: text = String(Int(port))
        default: throw Refusal(reason: "expected PORT or HOST:PORT")
        }
        do {
            return try MetricsAddress(parsing: text)
        } catch {
            throw Refusal(reason: error.reason)
        }
    }
}

extension SettingSource {
    /// Lower wins: flags over environment over file over defaults.
    var precedence: Int {
        switch self {
        case .flag: 0
        case .environment: 1
        case .file: 2
        case .defaultValue: 3
        }
    }
}

extension Settings {
    /// What the daemon runs with; `version` is reported in status.
    package func daemonConfiguration(version: String) -> DaemonConfiguration {
        var configuration = DaemonConfiguration(version: version)
        configuration.mediaURL = mediaURL
        configuration.trackingURL = trackingURL
        configuration.dialect = dialect
        configuration.isInitRequest = isInitRequest
        configuration.sgai = sgai
        configuration.metadataInterval = .seconds(metadataInterval)
        configuration.retention = .seconds(retention)
        configuration.drainTimeout = .seconds(drainTimeout)
        configuration.beaconMaxAge = .seconds(beaconMaxAge)
        configuration.quiet = quiet
        configuration.debugTracking = debugTracking
        configuration.macros = MacroSettings(
            deviceUserAgent: Self.userAgent(version: version), ifa: ifa, ifaType: ifaType, limitAdTracking: limitAdTracking)
        return configuration
    }

    /// How much audit the journal keeps.
    package var auditBounds: AuditBounds {
        AuditBounds(maxAge: Duration.seconds(auditMaxAge).milliseconds, maxBytes: auditMaxSize)
    }

    /// The `User-Agent` of every request of `beaconctl run`, which `[DEVICEUA]` repeats.
    package static func userAgent(version: String) -> String {
        "beaconctl/\(version)"
    }

    /// What the HTTP client runs with: `httpTimeout` in all, at most 5 s of it to connect.
    package func httpClientConfiguration(userAgent: String) -> CurlHTTPClient.Configuration {
        let total = Duration.seconds(httpTimeout)
        return CurlHTTPClient.Configuration(connectTimeout: min(.seconds(5), total), totalTimeout: total, userAgent: userAgent)
    }
}
