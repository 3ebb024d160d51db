#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `beaconctl status --json` prints: everything the daemon knows and did.
///
/// The field names and meanings are a contract with operators' tooling: fields may be added, never renamed.
package struct StatusReport: Sendable, Equatable, Codable {
    /// The version of the control socket protocol and of this document.
    package static let currentAPILevel = 1

    package var apiLevel: Int
    package var version: String
    /// idle, initializing, ready, playing, paused, seeking, buffering, completed or error.
    package var state: String
    package var session: SessionEndpoints?
    package var playhead: Milliseconds?
    /// When the last playhead tick arrived (wall clock).
    package var lastTickAt: Milliseconds?
    /// When the last metadata document was applied or found unchanged (wall clock).
    package var lastMetadataAt: Milliseconds?
    package var dataRange: DataRange?
    package var adBreaks: [AdBreak]
    package var counters: Counters
    /// Why the session is in the error state, or the last error of session init or metadata.
    package var lastError: String?
    /// Every beacon delivery still due or in flight, and those of the session's tracking events
    /// that finished, oldest first.
    package var deliveries: [Delivery]
    package var journal: Journal
    /// Metadata requests of the session that failed in a row (network, HTTP status, rejected
    /// document); 0 after a success. Each one lengthens the wait before the next request.
    package var metadataFailures: Int
    /// When the next metadata request is due (wall clock); nil while one is under way or without a session.
    package var nextMetadataAt: Milliseconds?
    /// Session init attempts that failed in a row for the stream being started; 0 once it is ready.
    package var initFailures: Int
    /// When the next session init attempt is due (wall clock) while init is being retried.
    package var nextInitAt: Milliseconds?
    /// What the session's times (`playhead`, `dataRange`, ad breaks, ads, tracking events) are
    /// counted on: `programDateTime` (epoch ms) or `mediaTime` (ms from the start of the stream);
    /// nil before the session's first metadata document.
    package var timeline: Timeline?
    /// On a media-time session, the playhead without the stitched ad breaks before it (ms): the
    /// position in the content, for bookmarks and resume points. Nil on program date time.
    package var contentPosition: Milliseconds?
    /// The ad break and ad the playhead is in, with its offsets inside them (ms); nil in the content.
    package var adPlacement: AdPlacement?
    /// Every reporter (beacons, media-analytics, heartbeat, telemetry), configured or not, in that order.
    package var reporters: [ReporterStatus]
    /// Where the audit is kept and how much of it.
    package var audit: AuditStatus?
    /// How the session's ads come: `stitched` into the stream, or as `interstitials` (every ad
    /// break then played by an interstitial); nil without a session.
    package var adInsertion: String?
    /// The interstitial playing, else the last one; nil before any.
    package var interstitial: InterstitialStatus?

    package init(
        apiLevel: Int = currentAPILevel, version: String, state: String, session: SessionEndpoints?,
        playhead: Milliseconds?, lastTickAt: Milliseconds? = nil, lastMetadataAt: Milliseconds? = nil,
        dataRange: DataRange?, adBreaks: [AdBreak], counters: Counters, lastError: String? = nil,
        metadataFailures: Int = 0, nextMetadataAt: Milliseconds? = nil, initFailures: Int = 0, nextInitAt: Milliseconds? = nil,
        deliveries: [Delivery] = [], journal: Journal = Journal(state: .off), timeline: Timeline? = nil, contentPosition: Milliseconds? = nil,
        adPlacement: AdPlacement? = nil, reporters: [ReporterStatus] = []
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
        self.deliveries = deliveries
        self.journal = journal
        self.timeline = timeline
        self.contentPosition = contentPosition
        self.adPlacement = adPlacement
        self.reporters = reporters
    }

    /// One signaling URL of one fired tracking event, as far as its delivery went.
    package struct Delivery: Sendable, Equatable, Codable {
        package var adBreakID: String
        package var adID: String
        package var event: TrackingEventType
        /// The signaling URL as in the metadata.
        package var url: String
        /// The URL its requests go to: `url` with its VAST macros expanded when the event fired.
        package var sentURL: String
        /// due, inFlight, delivered or failed.
        package var state: BeaconDelivery.State
        /// Requests started so far.
        package var attempts: Int
        package var lastStatus: Int?
        /// Why the last request did not deliver, or why the delivery was given up.
        package var lastError: String?
        /// When the tracking event became due (wall clock).
        package var dueAt: Milliseconds
        /// When the next request leaves, while due (wall clock).
        package var nextAttemptAt: Milliseconds?

        /// `wallOffset` turns the delivery's monotonic instants into wall-clock times (``TimeSource/wallOffset()``).
        package init(_ delivery: BeaconDelivery, wallOffset: Milliseconds) {
            adBreakID = delivery.key.adBreakID
            adID = delivery.key.adID
            event = delivery.key.event
            url = delivery.key.url
            sentURL = delivery.sentURL
            state = delivery.state
            attempts = delivery.attempts
            lastStatus = delivery.lastStatus
            lastError = delivery.lastError
            dueAt = delivery.dueAt + wallOffset
            nextAttemptAt = delivery.state == .due ? delivery.nextAttemptAt + wallOffset : nil
        }

        private enum CodingKeys: String, CodingKey {
            case adBreakID = "podId", adID = "adId", event, url, sentURL = "sentUrl", state, attempts, lastStatus, lastError, dueAt, nextAttemptAt
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            adBreakID = try container.decode(String.self, forKey: .adBreakID)
            adID = try container.decode(String.self, forKey: .adID)
            event = try container.decode(TrackingEventType.self, forKey: .event)
            url = try container.decode(String.self, forKey: .url)
            // A daemon of an earlier release sent every URL as in the metadata.
            sentURL = try container.decodeIfPresent(String.self, forKey: .sentURL) ?? url
            state = try container.decode(BeaconDelivery.State.self, forKey: .state)
            attempts = try container.decode(Int.self, forKey: .attempts)
            lastStatus = try container.decodeIfPresent(Int.self, forKey: .lastStatus)
            lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
            dueAt = try container.decode(Milliseconds.self, forKey: .dueAt)
            nextAttemptAt = try container.decodeIfPresent(Milliseconds.self, forKey: .nextAttemptAt)
        }
    }

    /// Where deliveries and sessions are kept.
    package struct Journal: Sendable, Equatable, Codable {
        package enum State: String, Sendable, Equatable, Codable {
            /// Written through to disk.
            case ok
            /// Configured but failing: the daemon works from memory and retries.
            case unavailable
            /// Not configured: memory only.
            case off
        }

        package var state: State
        /// Why the journal is unavailable.
        package var error: String?

        package init(state: State, error: String? = nil) {
            self.state = state
            self.error = error
        }
    }

    /// Running totals since the daemon started.
    package struct Counters: Sendable, Equatable, Codable {
        /// Playhead ticks accepted.
        package var ticks = 0
        /// Input lines refused (unreadable, unknown or invalid).
        package var badLines = 0
        /// Beacon deliveries answered 2xx.
        package var beaconsSent = 0
        /// Beacon deliveries given up: refused, answered with a status not retried, or too old.
        package var beaconsFailed = 0
        /// Requests that retried a delivery.
        package var beaconsRetried = 0
        /// Requests that may repeat one the server already received: in flight when the daemon stopped.
        package var beaconsResent = 0
        /// Metadata requests made.
        package var metadataFetches = 0
        /// Metadata requests that failed or brought a rejected document.
        package var metadataErrors = 0
        /// Journal reads, writes and opens that failed.
        package var journalErrors = 0
        /// Log lines dropped because stderr did not take them in time (or was closed).
        package var logLinesDropped = 0

        package init() {}

        private enum CodingKeys: String, CodingKey {
            case ticks, badLines, beaconsSent, beaconsFailed, beaconsRetried, beaconsResent, metadataFetches, metadataErrors, journalErrors
            case logLinesDropped
        }

        package init(from decoder: any Decoder) throws {
            // A counter an earlier release did not send reads as 0.
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func count(_ key: CodingKeys) throws -> Int { try container.decodeIfPresent(Int.self, forKey: key) ?? 0 }
            ticks = try count(.ticks)
            badLines = try count(.badLines)
            beaconsSent = try count(.beaconsSent)
            beaconsFailed = try count(.beaconsFailed)
            beaconsRetried = try count(.beaconsRetried)
            beaconsResent = try count(.beaconsResent)
            metadataFetches = try count(.metadataFetches)
            metadataErrors = try count(.metadataErrors)
            journalErrors = try count(.journalErrors)
            logLinesDropped = try count(.logLinesDropped)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case apiLevel, version, state, session, playhead, lastTickAt, lastMetadataAt, dataRange, adBreaks, counters, lastError
        case metadataFailures, nextMetadataAt, initFailures, nextInitAt, deliveries, journal
        case timeline, contentPosition, adPlacement, reporters, audit, adInsertion, interstitial
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        apiLevel = try container.decode(Int.self, forKey: .apiLevel)
        version = try container.decode(String.self, forKey: .version)
        state = try container.decode(String.self, forKey: .state)
        session = try container.decodeIfPresent(SessionEndpoints.self, forKey: .session)
        playhead = try container.decodeIfPresent(Milliseconds.self, forKey: .playhead)
        lastTickAt = try container.decodeIfPresent(Milliseconds.self, forKey: .lastTickAt)
        lastMetadataAt = try container.decodeIfPresent(Milliseconds.self, forKey: .lastMetadataAt)
        dataRange = try container.decodeIfPresent(DataRange.self, forKey: .dataRange)
        adBreaks = try container.decode([AdBreak].self, forKey: .adBreaks)
        counters = try container.decode(Counters.self, forKey: .counters)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        // Added fields: a daemon of the same API level but an earlier release does not send them.
        metadataFailures = try container.decodeIfPresent(Int.self, forKey: .metadataFailures) ?? 0
        nextMetadataAt = try container.decodeIfPresent(Milliseconds.self, forKey: .nextMetadataAt)
        initFailures = try container.decodeIfPresent(Int.self, forKey: .initFailures) ?? 0
        nextInitAt = try container.decodeIfPresent(Milliseconds.self, forKey: .nextInitAt)
        deliveries = try container.decodeIfPresent([Delivery].self, forKey: .deliveries) ?? []
        journal = try container.decodeIfPresent(Journal.self, forKey: .journal) ?? Journal(state: .off)
        timeline = try container.decodeIfPresent(Timeline.self, forKey: .timeline)
        contentPosition = try container.decodeIfPresent(Milliseconds.self, forKey: .contentPosition)
        adPlacement = try container.decodeIfPresent(AdPlacement.self, forKey: .adPlacement)
        reporters = try container.decodeIfPresent([ReporterStatus].self, forKey: .reporters) ?? []
        audit = try container.decodeIfPresent(AuditStatus.self, forKey: .audit)
        adInsertion = try container.decodeIfPresent(String.self, forKey: .adInsertion)
        interstitial = try container.decodeIfPresent(InterstitialStatus.self, forKey: .interstitial)
    }

    package func encode(to encoder: any Encoder) throws {
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
        try container.encode(deliveries, forKey: .deliveries)
        try container.encode(journal, forKey: .journal)
        try container.encode(timeline, forKey: .timeline)
        try container.encode(contentPosition, forKey: .contentPosition)
        try container.encode(adPlacement, forKey: .adPlacement)
        try container.encode(reporters, forKey: .reporters)
        try container.encodeIfPresent(audit, forKey: .audit)
        try container.encode(adInsertion, forKey: .adInsertion)
        try container.encode(interstitial, forKey: .interstitial)
    }

    /// The timeline times are shown on: program date time until a document says otherwise.
    package var shownTimeline: Timeline { timeline ?? .programDateTime }

    package func jsonLine() -> String {
        JSONLine.encode(self)
    }

    package static func decode(jsonLine: String) throws -> StatusReport {
        try JSONDecoder().decode(StatusReport.self, from: Data(jsonLine.utf8))
    }

    /// The `apiLevel` of a status document, read without decoding the rest: a daemon of another
    /// level may have changed it. Nil when the line is no status document.
    package static func apiLevel(inJSONLine jsonLine: String) -> Int? {
        struct Level: Decodable { var apiLevel: Int }
        return try? JSONDecoder().decode(Level.self, from: Data(jsonLine.utf8)).apiLevel
    }
}
