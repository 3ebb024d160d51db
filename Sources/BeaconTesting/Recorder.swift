import Synchronization

/// Thread-safe list of what a handler saw.
package final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    package init() {}

    package func append(_ item: Element) { items.withLock { $0.append(item) } }
    package var all: [Element] { items.withLock { $0 } }
    package var count: Int { items.withLock { $0.count } }
}
