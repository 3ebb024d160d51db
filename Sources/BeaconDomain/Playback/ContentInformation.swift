/// What the player knows about the content being played, from `load <url> {"content": {...}}` or
/// `content {...}`: what the media-analytics reporter reports as the media's parameters.
package struct ContentInformation: Sendable, Equatable {
    package enum StreamType: String, Sendable, Equatable, Codable, CaseIterable {
        case vod, live, linear
    }

    package var id: String?
    package var name: String?
    /// The content's length in seconds; nil for live (`-1` on the line reads as nil).
    package var length: Double?
    package var streamType: StreamType?
    /// The standard metadata keys the player gave (`show`, `season`, `episode`, `genre`,
    /// `network`, `assetId`, `rating`, `originator`, `firstAirDate`), by key.
    package var standardMetadata: [String: String]
    /// Every other key the player gave, as text.
    package var customMetadata: [String: String]

    package init(
        id: String? = nil, name: String? = nil, length: Double? = nil, streamType: StreamType? = nil,
        standardMetadata: [String: String] = [:], customMetadata: [String: String] = [:]
    ) {
        self.id = id
        self.name = name
        self.length = length
        self.streamType = streamType
        self.standardMetadata = standardMetadata
        self.customMetadata = customMetadata
    }

    /// The keys read as standard metadata.
    package static let standardMetadataKeys: Set<String> = [
        "show", "season", "episode", "genre", "network", "assetId", "rating", "originator", "firstAirDate",
    ]
}
