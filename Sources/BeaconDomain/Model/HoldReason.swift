/// Why the metadata keeps a tracking event that has not fired from firing, as status shows it.
package enum HoldReason: String, Sendable, Codable, Equatable, CaseIterable {
    /// Its ad left the metadata while its time lay inside the data range, before any of its events
    /// fired: the ad was replaced or removed, and none of its events will ever fire.
    case withdrawn
    /// It starts beyond its ad as last described: it fires only once a later document extends the
    /// ad over it (and then at once if its window was played).
    case awaitingConfirmation
    /// The data range moved past its ad's end without the ad being extended over it: the ad was cut
    /// short, and the event never fires.
    case neverConfirmed
}
