#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `beaconctl status --json` prints: everything the daemon knows and did.
///
/// The field names and meanings are a contract with operators' tooling: fields may be added, never renamed.
public struct StatusReport: Sendable, Equatable, Codable {
    /// The version of the control socket protocol and of this document.
    public static let currentAPILevel = 1

    public var apiLevel: Int
    public var version: String
    /// idle, initializing, ready, playing, paused, seeking, buffering, completed or error.
    public var state: String
    public var session: SessionEndpoints?
    public var playhead: Milliseconds?
    /// When the last playhead tick arrived (wall clock).
    public var lastTickAt: Milliseconds?
    /// When the last metadata document was applied or found unchanged (wall clock).
    public var lastMetadataAt: Milliseconds?
    public var dataRange: DataRange?
    public var adBreaks: [Pod]
    public var counters: Counters
    /// Why the session is in the error state, or the last metadata error.
    public var lastError: String?

    public init(
        apiLevel: Int = currentAPILevel, version: String, state: String, session: SessionEndpoints?,
        playhead: Milliseconds?, lastTickAt: Milliseconds? = nil, lastMetadataAt: Milliseconds? = nil,
        dataRange: DataRange?, adBreaks: [Pod], counters: Counters, lastError: String? = nil
    ) {
        self.apiLevel = apiLevel
        self.version = version
        self.state = state
        self.session = session
        self.playhead = playhead
        self.lastTickAt = lastTickAt
        self.lastMetadataAt = lastMetadataAt
        self.dataRange = dataRange
        self.adBreaks = adBreaks
        self.counters = counters
        self.lastError = lastError
    }

    /// Running totals since the daemon started.
    public struct Counters: Sendable, Equatable, Codable {
        /// Playhead ticks accepted.
        public var ticks = 0
        /// Input lines refused (unreadable, unknown or invalid).
        public var badLines = 0
        /// Signaling URL requests answered 2xx.
        public var beaconsSent = 0
        /// Signaling URL requests that failed or were refused.
        public var beaconsFailed = 0
        /// Metadata requests made.
        public var metadataFetches = 0
        /// Metadata requests that failed or brought a rejected document.
        public var metadataErrors = 0

        public init() {}
    }

    private enum CodingKeys: String, CodingKey {
        case apiLevel, version, state, session, playhead, lastTickAt, lastMetadataAt, dataRange, adBreaks, counters, lastError
    }

    public func encode(to encoder: any Encoder) throws {
        // Absent values are written as null: consumers see every field, always.
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(apiLevel, forKey: .apiLevel)
        try container.encode(version, forKey: .version)
        try container.encode(state, forKey: .state)
        try container.encode(session, forKey: .session)
        try container.encode(playhead, forKey: .playhead)
        try container.encode(lastTickAt, forKey: .lastTickAt)
        try container.encode(lastMetadataAt, forKey: .lastMetadataAt)
        try container.encode(dataRange, forKey: .dataRange)
        try container.encode(adBreaks, forKey: .adBreaks)
        try container.encode(counters, forKey: .counters)
        try container.encode(lastError, forKey: .lastError)
    }

    public func jsonLine() -> String {
        JSONLine.encode(self)
    }

    public static func decode(jsonLine: String) throws -> StatusReport {
        try JSONDecoder().decode(StatusReport.self, from: Data(jsonLine.utf8))
    }

    /// The `apiLevel` of a status document, read without decoding the rest: a daemon of another
    /// level may have changed it. Nil when the line is no status document.
    public static func apiLevel(inJSONLine jsonLine: String) -> Int? {
        struct Level: Decodable { var apiLevel: Int }
        return try? JSONDecoder().decode(Level.self, from: Data(jsonLine.utf8)).apiLevel
    }
}
