#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a player may give with `load <url>` as a JSON object after the URL
/// (`load <url> {"adsParams": {"deviceType": "tv"}, "content": {...}, "heartbeat": {...}, "isInitRequest": false}`). Keys
/// the daemon does not know are ignored, so a later release may add some without breaking older
/// players; a known key whose value cannot be used refuses the line, naming it.
package struct LoadOptions: Sendable, Equatable, Decodable {
    /// Ad parameters passed through to MediaTailor's session init as `adsParams` (player variables
    /// the ad decision server reads). Harmonic's init takes none: they are ignored there.
    package var adsParams: [String: String]?
    /// What the player knows of the content, for the media-analytics reporter.
    package var content: ContentInformation?
    /// The playback's heartbeat parameters, for the heartbeat reporter.
    package var heartbeat: HeartbeatOptions?
    /// Whether Harmonic's session init starts with its POST, as the document's `isInitRequest`;
    /// nil: the `is-init-request` setting decides.
    package var isInitRequest: Bool?
    /// The stream's ads come as HLS interstitials (the player knows it from its manifest): main
    /// ticks fire no ad from the start. Without it, the first `interstitial-start` says so.
    package var interstitials = false
    /// A MediaTailor server-guided ad insertion session: its init asks for client-side reporting,
    /// and its ads come as interstitials whose asset lists carry their tracking.
    package var sgai = false

    package init(
        adsParams: [String: String]? = nil, content: ContentInformation? = nil, heartbeat: HeartbeatOptions? = nil, isInitRequest: Bool? = nil
    ) {
        self.adsParams = adsParams
        self.content = content
        self.heartbeat = heartbeat
        self.isInitRequest = isInitRequest
    }

    private enum CodingKeys: String, CodingKey { case adsParams, content, heartbeat, isInitRequest, interstitials, sgai }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            adsParams = try container.decodeIfPresent([String: String].self, forKey: .adsParams)
        } catch DecodingError.typeMismatch {
            throw container.refusal(.adsParams, "must be an object of strings")
        }
        content = try container.decodeIfPresent(ContentInformation.self, forKey: .content)
        heartbeat = try container.decodeIfPresent(HeartbeatOptions.self, forKey: .heartbeat)
        isInitRequest = try container.liberalBool(forKey: .isInitRequest)
        sgai = try container.liberalBool(forKey: .sgai) ?? false
        interstitials = try container.liberalBool(forKey: .interstitials) ?? false || sgai
    }

    /// The options in `text`, a JSON object, or why not, naming the key.
    static func parse(_ text: String) -> Result<LoadOptions, LineError> {
        LineJSON.decode(LoadOptions.self, from: text, command: "load", form: "after the URL")
    }
}
