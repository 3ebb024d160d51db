/// The viewer's consent to media analytics (`privacy optin|optout|unknown`); ad beacons are not affected.
package enum PrivacyStatus: String, Sendable, Equatable, Codable, CaseIterable {
    /// Report (the default).
    case optIn = "optin"
    /// End the media-analytics session and send nothing more.
    case optOut = "optout"
    /// Hold the events, bounded, until the viewer decides.
    case unknown
}
