import BeaconDomain

/// One request body that passed the schema of its event type.
package struct MediaCollectionEvent: Sendable, Equatable {
    package var type: MediaCollectionEventType
    /// `playerTime.playhead`, in seconds.
    package var playhead: Double
    /// `playerTime.ts`, epoch milliseconds.
    package var ts: Int64
    package var params: [String: ReceivedJSON]
    package var qoeData: [String: ReceivedJSON]
    package var customMetadata: [String: String]

    package init(
        type: MediaCollectionEventType, playhead: Double, ts: Int64, params: [String: ReceivedJSON] = [:],
        qoeData: [String: ReceivedJSON] = [:], customMetadata: [String: String] = [:]
    ) {
        self.type = type
        self.playhead = playhead
        self.ts = ts
        self.params = params
        self.qoeData = qoeData
        self.customMetadata = customMetadata
    }

    /// The string value of the parameter `key`, if it is one.
    package func string(_ key: String) -> String? { params[key]?.string }
}
