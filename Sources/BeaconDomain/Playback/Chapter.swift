/// A chapter of the content, from `chapter-start {"index", "offset", "length", "name"}`.
public struct Chapter: Sendable, Equatable {
    /// Its position among the content's chapters, from 1.
    public var index: Int
    /// Where it starts in the content, in seconds.
    public var offset: Double
    /// How long it lasts, in seconds.
    public var length: Double
    public var name: String?

    public init(index: Int, offset: Double, length: Double, name: String? = nil) {
        self.index = index
        self.offset = offset
        self.length = length
        self.name = name
    }
}
