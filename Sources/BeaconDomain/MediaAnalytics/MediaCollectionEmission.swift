/// An event and the tracking session it belongs to, numbered by the tracker from 1: the outbox
/// learns each number's session id from the back end's answer to its `sessionStart`.
package struct MediaCollectionEmission: Sendable, Equatable {
    package var session: Int
    package var event: MediaCollectionEvent

    package init(session: Int, event: MediaCollectionEvent) {
        self.session = session
        self.event = event
    }
}

extension Array where Element == MediaCollectionEmission {
    /// Which event a full queue gives up for a newer one: the oldest ping, else the oldest event
    /// that is no session, ad break, ad or chapter bound; nil when every one is such a bound, which
    /// are kept whatever the count (a playback makes few of them). `sparing` leaves the head alone
    /// (the request in flight).
    func indexToDrop(sparing spared: Int = 0) -> Int? {
        let candidates = indices.dropFirst(spared)
        return candidates.first { self[$0].event.type.isPing }
            ?? candidates.first { !self[$0].event.type.isStructural }
    }

    /// Appends `emission`, then drops what is over `capacity` by ``indexToDrop(sparing:)``;
    /// returns how many were dropped.
    mutating func append(_ emission: MediaCollectionEmission, capacity: Int, sparing spared: Int = 0) -> Int {
        append(emission)
        var dropped = 0
        while count > capacity, let index = indexToDrop(sparing: spared) {
            remove(at: index)
            dropped += 1
        }
        return dropped
    }
}
