import BeaconDomain

/// A ``BookmarkStore`` in memory, with the bookmarks to look at and wait for.
package final class InMemoryBookmarkStore: BookmarkStore {
    private let bookmarks = Watched<[String: Milliseconds]>([:])

    package init() {}

    package func saveBookmark(contentID: String, position: Milliseconds, savedAt: Milliseconds) throws(JournalError) {
        bookmarks.withLock { $0[contentID] = position }
    }

    package func bookmark(contentID: String) throws(JournalError) -> Milliseconds? {
        bookmarks.value[contentID]
    }

    package var saved: [String: Milliseconds] { bookmarks.value }

    /// Returns once the bookmarks kept are `expected`: checked at each save, never polled.
    package func wait(untilSaved expected: [String: Milliseconds]) async throws {
        try await bookmarks.wait { $0 == expected }
    }
}
