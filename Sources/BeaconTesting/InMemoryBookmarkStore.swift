import BeaconDomain
import Synchronization

/// A ``BookmarkStore`` in memory, with the bookmarks and their save times to look at.
package final class InMemoryBookmarkStore: BookmarkStore {
    private let bookmarks = Mutex<[String: (position: Milliseconds, savedAt: Milliseconds)]>([:])

    package init() {}

    package func saveBookmark(contentID: String, position: Milliseconds, savedAt: Milliseconds) throws(JournalError) {
        bookmarks.withLock { $0[contentID] = (position, savedAt) }
    }

    package func bookmark(contentID: String) throws(JournalError) -> Milliseconds? {
        bookmarks.withLock { $0[contentID]?.position }
    }

    package var saved: [String: Milliseconds] { bookmarks.withLock { $0.mapValues(\.position) } }
}
