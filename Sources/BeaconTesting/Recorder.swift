import Synchronization

/// Thread-safe list of what a handler saw.
public final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    public init() {}

    public func append(_ item: Element) { items.withLock { $0.append(item) } }
    public var all: [Element] { items.withLock { $0 } }
    public var count: Int { items.withLock { $0.count } }
}
