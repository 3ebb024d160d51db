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
    /// Why the session is in the error state, or the last error of session init or metadata.
    public var lastError: String?
    /// Metadata requests of the session that failed in a row (network, HTTP status, rejected
    /// document); 0 after a success. Each one lengthens the wait before the next request.
    public var metadataFailures: Int
    /// When the next metadata request is due (wall clock); nil while one is under way or without a session.
    public var nextMetadataAt: Milliseconds?
    /// Session init attempts that failed in a row for the stream being started; 0 once it is ready.
    public var initFailures: Int
    /// When the next session init attempt is due (wall clock) while init is being retried.
    public var nextInitAt: Milliseconds?

    public init(
        apiLevel: Int = currentAPILevel, version: String, state: String, session: SessionEndpoints?,
        playhead: Milliseconds?, lastTickAt: Milliseconds? = nil, lastMetadataAt: Milliseconds? = nil,
        dataRange: DataRange?, adBreaks: [Pod], counters: Counters, lastError: String? = nil,
        metadataFailures: Int = 0, nextMetadataAt: Milliseconds? = nil, initFailures: Int = 0, nextInitAt: Milliseconds? = nil
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
        self.metadataFailures = metadataFailures
        self.nextMetadataAt = nextMetadataAt
        self.initFailures = initFailures
        self.nextInitAt = nextInitAt
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
        case metadataFailures, nextMetadataAt, initFailures, nextInitAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        apiLevel = try container.decode(Int.self, forKey: .apiLevel)
        version = try container.decode(String.self, forKey: .version)
        state = try container.decode(String.self, forKey: .state)
        session = try container.decodeIfPresent(SessionEndpoints.self, forKey: .session)
        playhead = try container.decodeIfPresent(Milliseconds.self, forKey: .playhead)
        lastTickAt = try container.decodeIfPresent(Milliseconds.self, forKey: .lastTickAt)
        lastMetadataAt = try container.decodeIfPresent(Milliseconds.self, forKey: .lastMetadataAt)
        dataRange = try container.decodeIfPresent(DataRange.self, forKey: .dataRange)
        adBreaks = try container.decode([Pod].self, forKey: .adBreaks)
        counters = try container.decode(Counters.self, forKey: .counters)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        // Added fields: a daemon of the same API level but an earlier release does not send them.
        metadataFailures = try container.decodeIfPresent(Int.self, forKey: .metadataFailures) ?? 0
        nextMetadataAt = try container.decodeIfPresent(Milliseconds.self, forKey: .nextMetadataAt)
        initFailures = try container.decodeIfPresent(Int.self, forKey: .initFailures) ?? 0
        nextInitAt = try container.decodeIfPresent(Milliseconds.self, forKey: .nextInitAt)
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
        try container.encode(metadataFailures, forKey: .metadataFailures)
        try container.encode(nextMetadataAt, forKey: .nextMetadataAt)
        try container.encode(initFailures, forKey: .initFailures)
        try container.encode(nextInitAt, forKey: .nextInitAt)
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
