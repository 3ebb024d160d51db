/// A chapter of the content, from `chapter-start {"index", "offset", "length", "name"}`.
package struct Chapter: Sendable, Equatable {
    /// Its position among the content's chapters, from 1.
    package var index: Int
    /// Where it starts in the content, in seconds.
    package var offset: Double
    /// How long it lasts, in seconds.
    package var length: Double
    package var name: String?

    package init(index: Int, offset: Double, length: Double, name: String? = nil) {
        self.index = index
        self.offset = offset
        self.length = length
        self.name = name
    }
}
