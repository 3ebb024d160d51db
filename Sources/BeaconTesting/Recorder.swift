/// Thread-safe list of what a handler saw, with waits for what it is to see.
package final class Recorder<Element: Sendable>: Sendable {
    private let items = Watched<[Element]>([])

    package init() {}

    package func append(_ item: Element) { items.withLock { $0.append(item) } }
    package var all: [Element] { items.value }
    package var count: Int { items.value.count }

    /// Returns once what was recorded satisfies `condition`: checked at each append, never polled.
    package func wait(until condition: @escaping @Sendable ([Element]) -> Bool) async throws {
        try await items.wait(until: condition)
    }
}
