/// How `beaconctl run` behaves; every field has the default the CLI documents.
public struct DaemonConfiguration: Sendable, Equatable {
    /// Start a session for this stream at once; without it the daemon idles until `load`.
    public var mediaURL: String?
    /// Poll this metadata URL and skip session init.
    public var trackingURL: String?
    /// The ad-insertion service spoken to; nil (`auto`): decided per session.
    public var dialect: Dialect?
    public var metadataInterval: Duration = .seconds(2)
    /// How long ad breaks gone from the metadata, and played stretches, are remembered after they end.
    public var retention: Duration = .seconds(7200)
    /// How long in-flight beacons may take to finish at shutdown.
    public var drainTimeout: Duration = .seconds(5)
    /// How long after it became due a beacon is still retried before it is given up.
    public var beaconMaxAge: Duration = .seconds(15 * 60)
    /// The waits between a beacon's retries.
    public var retryBackoff = Backoff()
    /// Beacon requests in flight at once to one host: as many as the HTTP client's connections to a
    /// host, so that every delivery journaled in flight is really on the wire, and a restart after a
    /// crash counts as possible re-sends only requests the server may have received.
    public var maxInFlightPerHost = HostConnections.perHost
    /// Beacon requests in flight at once in all.
    public var maxInFlight = 128
    /// Compute everything, send no beacon.
    public var quiet = false
    /// Log every beacon and metadata line, debug ones included, whatever the log level.
    public var debugTracking = false
    /// The largest metadata body accepted: 2 MiB, about 16 000 tracking events, twice the live
    /// window of a megabyte the benchmarks decode. Playing the largest document while answering `status` and saving the
    /// journal peaks under 63 MiB resident, under half of the unit's `MemoryMax=128M`.
    public var maxMetadataBytes = 2 << 20
    /// What the VAST macros of signaling URLs are filled from, besides the beacon itself.
    public var macros: MacroSettings
    /// Reported in status.
    public var version: String

    /// `macros` defaults to no advertising identifier and the `User-Agent` of a `CurlHTTPClient` made without one.
    public init(version: String, macros: MacroSettings = MacroSettings(deviceUserAgent: "beaconctl")) {
        self.version = version
        self.macros = macros
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    public var milliseconds: Milliseconds {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
