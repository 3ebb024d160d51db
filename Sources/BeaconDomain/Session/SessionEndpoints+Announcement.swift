extension SessionEndpoints {
    /// The JSON line that hands the session to the player (on stdout, and as the reply to `load`):
    /// its manifest and tracking URLs and its session ID, `null` when it has none.
    package var announcement: String {
        struct Announcement: Encodable {
            var manifestUrl: String
            var trackingUrl: String
            var sessionId: String?
            // Encoded by hand: a synthesized encoding would leave out a nil session ID, and the player reads the key.
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(manifestUrl, forKey: .manifestUrl)
                try container.encode(trackingUrl, forKey: .trackingUrl)
                try container.encode(sessionId, forKey: .sessionId)
            }
            enum CodingKeys: String, CodingKey { case manifestUrl, trackingUrl, sessionId }
        }
        return JSONLine.encode(Announcement(manifestUrl: manifestUrl, trackingUrl: trackingUrl, sessionId: sessionId))
    }
}
