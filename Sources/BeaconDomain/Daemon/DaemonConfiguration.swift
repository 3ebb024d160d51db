/// How `beaconctl run` behaves; every field has the default the CLI documents.
package struct DaemonConfiguration: Sendable, Equatable {
    /// Start a session for this stream at once; without it the daemon idles until `load`.
    package var mediaURL: String?
    /// Poll this metadata URL and skip session init.
    package var trackingURL: String?
    /// The ad-insertion service spoken to; nil (`auto`): decided per session.
    package var dialect: Dialect?
    /// Harmonic session init starts with the POST its document describes (`isInitRequest`); a
    /// `load` may say otherwise for its playback.
    package var isInitRequest = true
    /// Every MediaTailor session is an SGAI session; a `load`'s `sgai` asks for its playback alone.
    package var sgai = false
    package var metadataInterval: Duration = .seconds(2)
    /// How long ad breaks gone from the metadata, and played stretches, are remembered after they end.
    package var retention: Duration = .seconds(7200)
    /// How long in-flight beacons may take to finish at shutdown.
    package var drainTimeout: Duration = .seconds(5)
    /// How long after it became due a beacon is still retried before it is given up.
    package var beaconMaxAge: Duration = .seconds(15 * 60)
    /// The waits between a beacon's retries.
    package var retryBackoff = Backoff()
    /// Beacon requests in flight at once to one host: as many as the HTTP client's connections to a
    /// host, so that every delivery journaled in flight is really on the wire, and a restart after a
    /// crash counts as possible re-sends only requests the server may have received.
    package var maxInFlightPerHost = HostConnections.perHost
    /// Beacon requests in flight at once in all.
    package var maxInFlight = 128
    /// Compute everything, send no beacon.
    package var quiet = false
    /// Log every beacon and metadata line, debug ones included, whatever the log level.
    package var debugTracking = false
    /// The largest metadata body accepted: 2 MiB, about 16 000 tracking events, twice the live
    /// window of a megabyte the benchmarks decode. Playing the largest document while answering `status` and saving the
    /// journal peaks under 63 MiB resident, under half of the unit's `MemoryMax=128M`.
    package var maxMetadataBytes = 2 << 20
    /// What the VAST macros of signaling URLs are filled from, besides the beacon itself.
    package var macros: MacroSettings
    /// Reported in status.
    package var version: String

    /// `macros` defaults to no advertising identifier and the `User-Agent` of a `CurlHTTPClient` made without one.
    package init(version: String, macros: MacroSettings = MacroSettings(deviceUserAgent: "beaconctl")) {
        self.version = version
        self.macros = macros
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    package var milliseconds: Milliseconds {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
