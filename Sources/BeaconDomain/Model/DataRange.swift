/// The stretch of program time the ad-tracking metadata describes.
public struct DataRange: Sendable, Equatable, Codable {
    package var start: Milliseconds
    public var end: Milliseconds

    public init(start: Milliseconds, end: Milliseconds) {
        self.start = start
        self.end = end
    }
}
