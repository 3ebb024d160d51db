/// Where the last bookmark of each content id is kept (`record-bookmark`): the journal on disk, or
/// memory in tests. A `load` of the same content id replies with it as `resumePosition`.
package protocol BookmarkStore: Sendable {
    /// Keeps `position` (the content position, stitched ads excluded, in milliseconds) as the
    /// bookmark of `contentID`, replacing the one before; `savedAt` is the wall clock, epoch ms.
    func saveBookmark(contentID: String, position: Milliseconds, savedAt: Milliseconds) throws(JournalError)
    /// The bookmark kept for `contentID`, in milliseconds, if any.
    func bookmark(contentID: String) throws(JournalError) -> Milliseconds?
}

extension BookmarkStore {
    /// What a `load` replies as `resumePosition`: the bookmark of the playback's content id in
    /// seconds, when its heartbeat records bookmarks; nil when there is none or it cannot be read.
    package func resumePosition(for options: HeartbeatOptions?) -> Double? {
        guard let options, options.flag, let contentID = options.contentID, let position = try? bookmark(contentID: contentID) else { return nil }
        return Double(position) / 1_000
    }
}
