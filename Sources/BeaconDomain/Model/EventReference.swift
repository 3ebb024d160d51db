/// Where a tracking event lives in the ad schedule.
///
/// Merging only ever appends ads to a pod and events to an ad, so the positions stay valid
/// for as long as the pod is retained.
public struct EventReference: Hashable, Sendable, Codable {
    public var podID: String
    public var adIndex: Int
    public var eventIndex: Int

    public init(podID: String, adIndex: Int, eventIndex: Int) {
        self.podID = podID
        self.adIndex = adIndex
        self.eventIndex = eventIndex
    }
}
