/// The daemon's session a playback was loaded into, once it is ready. A reporter ends a playback
/// only on the end of that session: the session a replacing `load` ends is told after that load,
/// and is not the new playback's.
package struct LoadedSession: Sendable, Equatable {
    /// The session's id, once ready (nil for a stream without one).
    package private(set) var id: String?
    package private(set) var isReady = false

    package init() {}

    /// A session became ready: the first one after the `load` is the playback's.
    package mutating func ready(_ sessionID: String?) {
        guard !isReady else { return }
        id = sessionID
        isReady = true
    }

    /// Whether the end of `sessionID` is the end of this playback's session.
    package func isEnded(by sessionID: String?) -> Bool {
        isReady && id == sessionID
    }
}
