/// The `load` JSON's `"heartbeat"` object, with the wire's key names (`contentId`,
/// `primaryContentId`); keys not known are ignored. `freq` is in milliseconds, the live times
/// in epoch milliseconds.
extension HeartbeatOptions: Decodable {
    private enum CodingKeys: String, CodingKey {
        case flag, token, freq, catalogType, liveStartTime, liveEndTime, liveEventType, overflowMode
        case contentID = "contentId"
        case primaryContentID = "primaryContentId"
    }

    /// The shortest `freq` taken: a player's typo must not turn the heartbeat into a flood.
    package static let minimumFrequency: Milliseconds = 100
    /// The longest: a day.
    package static let maximumFrequency: Milliseconds = 86_400_000

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let epoch = "must be a whole number of epoch milliseconds"
        self.init(
            flag: try container.liberalBool(forKey: .flag) ?? false,
            token: try container.liberalText(forKey: .token),
            freq: try container.liberalInteger(
                forKey: .freq, in: Self.minimumFrequency...Self.maximumFrequency,
                "must be a whole number of milliseconds from \(Self.minimumFrequency) to \(Self.maximumFrequency)"),
            contentID: try container.liberalText(forKey: .contentID),
            catalogType: try container.liberalText(forKey: .catalogType),
            primaryContentID: try container.liberalText(forKey: .primaryContentID),
            liveStartTime: try container.liberalInteger(forKey: .liveStartTime, in: 0...MetadataDocument.latestTime, epoch),
            liveEndTime: try container.liberalInteger(forKey: .liveEndTime, in: 0...MetadataDocument.latestTime, epoch),
            liveEventType: try container.liberalChoice(LiveEventType.self, forKey: .liveEventType),
            overflowMode: try container.liberalChoice(OverflowMode.self, forKey: .overflowMode))
    }
}
