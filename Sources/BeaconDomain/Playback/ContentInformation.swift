/// What the player knows about the content being played, from `load <url> {"content": {...}}` or
/// `content {...}`: what the media-analytics reporter reports as the media's parameters.
public struct ContentInformation: Sendable, Equatable {
    public enum StreamType: String, Sendable, Equatable, Codable, CaseIterable {
        case vod, live, linear
    }

    public var id: String?
    public var name: String?
    /// The content's length in seconds; nil for live (`-1` on the line reads as nil).
    public var length: Double?
    public var streamType: StreamType?
    /// The standard metadata keys the player gave (`show`, `season`, `episode`, `genre`,
    /// `network`, `assetId`, `rating`, `originator`, `firstAirDate`), by key.
    public var standardMetadata: [String: String]
    /// Every other key the player gave, as text.
    public var customMetadata: [String: String]

    public init(
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
    public static let standardMetadataKeys: Set<String> = [
        "show", "season", "episode", "genre", "network", "assetId", "rating", "originator", "firstAirDate",
    ]
}
