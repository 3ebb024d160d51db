/// `{"bitrate": bps, "droppedFrames": n, "fps": x, "startupTime": ms}`, from `qos {...}` or the
/// same keys of a JSON tick: each optional, none negative, the counts whole numbers.
extension QualityOfService: Decodable {
    private enum CodingKeys: String, CodingKey { case bitrate, droppedFrames, fps, startupTime }

    /// The largest count read: beyond 2^53 a JSON number is no longer exact.
    static let maxCount: Int64 = 1 << 53

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            bitrate: try container.liberalInteger(forKey: .bitrate, in: 0...Self.maxCount, "must be a whole number of bits per second, 0 or more")
                .map { Int($0) },
            droppedFrames: try container.liberalInteger(forKey: .droppedFrames, in: 0...Self.maxCount, "must be a whole number, 0 or more")
                .map { Int($0) },
            fps: try container.liberalNonNegative(forKey: .fps, "must be a number, 0 or more"),
            startupTime: try container.liberalNonNegative(forKey: .startupTime, "must be a number of milliseconds, 0 or more"))
    }
}
