#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the media-analytics reporter keeps across restarts (Adobe's `offlineEnabled`): the events
/// not sent yet, but pings (stale after a restart), by tracking session, each session with its
/// `sessionStart` (sent or not) and its session id once the back end gave one.
package struct MediaCollectionBacklog: Sendable, Equatable, Codable {
    package struct Session: Sendable, Equatable, Codable {
        /// The tracker's number of the session in the run that made it.
        package var number: Int
        package var sessionID: String?
        package var start: MediaCollectionEvent
        /// Oldest first; begins with `start` when that was not sent.
        package var events: [MediaCollectionEvent]

        package init(number: Int, sessionID: String?, start: MediaCollectionEvent, events: [MediaCollectionEvent]) {
            self.number = number
            self.sessionID = sessionID
            self.start = start
            self.events = events
        }
    }

    package var sessions: [Session]

    package init(sessions: [Session] = []) {
        self.sessions = sessions
    }

    package var eventCount: Int { sessions.reduce(0) { $0 + $1.events.count } }

    /// As the state directory keeps it: one JSON document of the request bodies.
    package var text: String { JSONLine.encode(self) }

    /// The backlog `text` holds; nil when it holds none (a damaged file is no backlog).
    package init?(text: String) {
        guard let backlog = try? JSONDecoder().decode(Self.self, from: Data(text.utf8)) else { return nil }
        self = backlog
    }

    /// What to send after a restart at `wallNow`, in order, numbered apart from the new run's
    /// sessions (-1, -2...), and the session ids they go to. A session the back end opened goes on
    /// under its id while it is alive (an event within ``MediaAnalyticsTracker/idleTimeout`` and
    /// younger than ``MediaAnalyticsTracker/longestSession``); one the back end has closed meanwhile
    /// is resumed as a new one: its `sessionStart` again, with `media.resume`, just before its first
    /// event kept. One never opened is sent as it was made.
    package func restored(wallNow: Milliseconds) -> (emissions: [MediaCollectionEmission], sessionIDs: [Int: String]) {
        var emissions: [MediaCollectionEmission] = []
        var sessionIDs: [Int: String] = [:]
        for (index, session) in sessions.enumerated() {
            guard let first = session.events.first else { continue }
            let number = -(index + 1)
            var events = session.events
            if first.type != .sessionStart {
                let alive = wallNow - first.ts < MediaAnalyticsTracker.idleTimeout && wallNow - session.start.ts < MediaAnalyticsTracker.longestSession
                if let id = session.sessionID, alive {
                    sessionIDs[number] = id
                } else {
                    var start = session.start
                    start.params["media.resume"] = .boolean(true)
                    start.ts = max(first.ts - 1, session.start.ts)
                    start.playhead = first.playhead
                    events.insert(start, at: 0)
                }
            }
            emissions += events.map { MediaCollectionEmission(session: number, event: $0) }
        }
        return (emissions, sessionIDs)
    }
}
