/// Where a tracking event lives in the ad schedule.
///
/// Merging only ever appends ads to an ad break and events to an ad, so the positions stay valid
/// for as long as the ad break is retained.
public struct EventReference: Hashable, Sendable, Codable {
    package var adBreakID: String
    package var adIndex: Int
    package var eventIndex: Int

    // The wire names, as documents and earlier releases spell them.
    enum CodingKeys: String, CodingKey { case adBreakID = "podID", adIndex, eventIndex }

    public init(adBreakID: String, adIndex: Int, eventIndex: Int) {
        self.adBreakID = adBreakID
        self.adIndex = adIndex
        self.eventIndex = eventIndex
    }
}
