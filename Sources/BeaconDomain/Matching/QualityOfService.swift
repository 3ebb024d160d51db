/// What the player measured of playback quality (`qos {...}`, `bitrate <bps>`, or the same keys in
/// a JSON tick): only the keys given are set.
public struct QualityOfService: Sendable, Equatable {
    /// Bits per second.
    public var bitrate: Int?
    public var droppedFrames: Int?
    public var fps: Double?
    /// Milliseconds from the play request to the first frame.
    public var startupTime: Double?

    public init(bitrate: Int? = nil, droppedFrames: Int? = nil, fps: Double? = nil, startupTime: Double? = nil) {
        self.bitrate = bitrate
        self.droppedFrames = droppedFrames
        self.fps = fps
        self.startupTime = startupTime
    }

    public var isEmpty: Bool { bitrate == nil && droppedFrames == nil && fps == nil && startupTime == nil }
}
