/// What the player measured of playback quality (`qos {...}`, `bitrate <bps>`, or the same keys in
/// a JSON tick): only the keys given are set.
public struct QualityOfService: Sendable, Equatable {
    /// Bits per second.
    package var bitrate: Int?
    package var droppedFrames: Int?
    package var fps: Double?
    /// Milliseconds from the play request to the first frame.
    package var startupTime: Double?

    package init(bitrate: Int? = nil, droppedFrames: Int? = nil, fps: Double? = nil, startupTime: Double? = nil) {
        self.bitrate = bitrate
        self.droppedFrames = droppedFrames
        self.fps = fps
        self.startupTime = startupTime
    }

    package var isEmpty: Bool { bitrate == nil && droppedFrames == nil && fps == nil && startupTime == nil }
}
