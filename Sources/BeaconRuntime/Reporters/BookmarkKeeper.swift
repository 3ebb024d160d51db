import BeaconDomain

/// The heartbeat's bookmarks, kept and read on a thread of NIO's blocking pool: a store's calls
/// are file I/O (SQLite, waiting up to its busy timeout while the journal commits), and they run
/// neither on an actor (the daemon's, answering a `load`; the heartbeat's runner) nor on the
/// cooperative pool.
final class BookmarkKeeper: Sendable {
    private let store: any BookmarkStore

    init(_ store: any BookmarkStore) {
        self.store = store
    }

    func save(contentID: String, position: Milliseconds, savedAt: Milliseconds) async throws(JournalError) {
        try await offThread { [store] () throws(JournalError) in try store.saveBookmark(contentID: contentID, position: position, savedAt: savedAt) }
    }

    /// What a `load` replies as `resumePosition`: see ``BookmarkStore/resumePosition(for:)``.
    func resumePosition(for options: HeartbeatOptions?) async -> Double? {
        (try? await offThread { [store] () throws(JournalError) in store.resumePosition(for: options) }) ?? nil
    }

    private func offThread<Value: Sendable>(_ body: @escaping @Sendable () throws(JournalError) -> Value) async throws(JournalError) -> Value {
        try await BlockingPool.run(body, shutDown: JournalError(reason: "the blocking pool is shut down"))
    }
}
