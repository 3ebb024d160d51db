/// What the reporters keep per box across restarts: the installation id (media analytics'
/// `appInstallationId`), the viewer's privacy status, and the media-analytics events not sent yet
/// (`offline-enabled`). Kept in the state directory, or in memory without one.
package protocol ReporterStateStore: Sendable {
    /// Created once, then always the same.
    func installationID() -> String
    /// The last status the viewer said; nil until one was said (the reporter's `privacy-default`
    /// holds meanwhile).
    func privacyStatus() -> PrivacyStatus?
    /// Kept from now on, even when writing it fails (the next start then reads the previous one).
    func setPrivacyStatus(_ status: PrivacyStatus) throws(ReporterStateError)
    /// What the media-analytics reporter kept last, as it wrote it; nil when nothing.
    func mediaAnalyticsBacklog() -> String?
    /// Replaces what was kept; called from one task at a time.
    func keepMediaAnalyticsBacklog(_ text: String) throws(ReporterStateError)
}

/// Why per-box state could not be written.
package struct ReporterStateError: Error, Sendable, Equatable, CustomStringConvertible {
    package var reason: String

    package init(reason: String) {
        self.reason = reason
    }

    package var description: String { reason }
}
