extension SessionEndpoints {
    /// The JSON line that hands the session to the player (on stdout, and as the reply to `load`):
    /// its manifest and tracking URLs and its session ID, `null` when it has none. A plain stream's
    /// says `"plain": true`, with its own URL as the manifest and no tracking URL; an SGAI
    /// session's says `"sgai": true`, with no tracking URL.
    package var announcement: String { announcement(resumePosition: nil) }

    /// The announcement with `resumePosition`, the seconds of content to resume at (the content's
    /// bookmark), when there is one.
    package func announcement(resumePosition: Double?) -> String {
        struct Announcement: Encodable {
            var manifestURL: String
            var trackingURL: String?
            var sessionID: String?
            var resumePosition: Double?
            var plain: Bool
            var sgai: Bool
            // Encoded by hand: a synthesized encoding would leave out a nil session ID, and the player reads the key.
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(manifestURL, forKey: .manifestURL)
                try container.encode(trackingURL, forKey: .trackingURL)
                try container.encode(sessionID, forKey: .sessionID)
                try container.encodeIfPresent(resumePosition, forKey: .resumePosition)
                if plain { try container.encode(true, forKey: .plain) }
                if sgai { try container.encode(true, forKey: .sgai) }
            }
            enum CodingKeys: String, CodingKey {
                case manifestURL = "manifestUrl", trackingURL = "trackingUrl", sessionID = "sessionId", resumePosition, plain, sgai
            }
        }
        return JSONLine.encode(
            Announcement(
                manifestURL: manifestURL, trackingURL: pollsMetadata ? trackingURL : nil, sessionID: sessionID, resumePosition: resumePosition,
                plain: isPlain, sgai: isSGAI))
    }
}
