/// An output fed by the session, the input lines and the ad timeline.
package enum ReporterName: String, Sendable, Equatable, Hashable, Codable, CaseIterable, Comparable {
    /// The ad beacons: each tracking event's signaling URLs.
    case beacons
    /// Player analytics heartbeats (Adobe's Media Collection API).
    case mediaAnalytics = "media-analytics"
    /// The streaming service's session heartbeat (concurrency, bookmarks, blackouts, live events).
    case heartbeat
    /// The audit and the daemon's metrics, pushed to an OpenTelemetry collector (OTLP/HTTP).
    case telemetry

    package static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
