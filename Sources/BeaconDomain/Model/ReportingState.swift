/// Where a tracking event stands in being reported to the ad server.
package enum ReportingState: String, Sendable, Codable, Equatable, CaseIterable {
    /// Not fired yet.
    case idle
    /// Fired; its signaling URLs are being requested.
    case connecting
    /// Every signaling URL answered 2xx (or the daemon is quiet and sent nothing).
    case done
    /// At least one signaling URL failed.
    case failed
}
