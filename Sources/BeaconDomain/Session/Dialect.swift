/// The ad-insertion service a session speaks to: how it is started and how its tracking document
/// reads. The `dialect` setting names one, or `auto` (no value): decided per session from the
/// session-init request and answer, else from the first tracking document's shape.
public enum Dialect: String, Sendable, Equatable, Codable, CaseIterable {
    /// Harmonic VOS360 Ad Insertion: `adBreaks` in program date time, POST or `initSession=true` init.
    case harmonic
    /// AWS Elemental MediaTailor client-side tracking: `avails` in seconds of media time, a JSON POST
    /// with `reportingMode: client` to `/v1/session/...`, `nextToken` paging.
    case mediatailor

    /// The dialect a session-initialization URL names: MediaTailor's live under `/v1/session/`.
    package static func named(byInitURL url: String) -> Dialect? {
        url.contains("/v1/session/") ? .mediatailor : nil
    }

    /// The dialect a tracking document's shape names.
    package static func of(trackingDocument body: some Collection<UInt8>) -> Dialect {
        MediaTailorDocument.isMediaTailor(body) ? .mediatailor : .harmonic
    }
}
