import BeaconDomain
import Synchronization

/// The daemon's event history and its followers: records what the daemon did from its
/// notifications (``EventHistory/record(_:at:)`` decides what is kept), answers `events`, and
/// streams each new entry to `events follow` clients.
///
/// Recording never waits: it runs on the daemon's own path (under a lock held for one append),
/// and a follower that does not keep up is dropped, never waited for.
package final class EventHistoryRecorder: DaemonNotificationSubscriber {
    /// Entries kept when none is given.
    package static let defaultCapacity = 256

    /// Entries kept; older ones are forgotten.
    package let capacity: Int
    /// Lines a follower may have waiting before it is dropped.
    package let followerBacklog: Int

    private struct State {
        var history: EventHistory
        var followers: [Int: AsyncStream<String>.Continuation] = [:]
        var nextFollower = 0
        var isFinished = false
    }

    private let state: Mutex<State>
    /// Held from an entry's numbering until its followers have it: the daemon and a reporter
    /// (what it told the player) both record, and a follower must get the entries in their order.
    /// The followers' termination handlers never take it, so yielding under it cannot deadlock.
    private let recording = Mutex(())
    private let now: @Sendable () -> Milliseconds

    /// - Parameter now: the wall clock that stamps each entry.
    package init(capacity: Int = defaultCapacity, now: @escaping @Sendable () -> Milliseconds) {
        self.capacity = capacity
        // Both rings' entries, sent to a follower resuming from 0, and room for what happens meanwhile.
        self.followerBacklog = 2 * capacity + 64
        self.state = Mutex(State(history: EventHistory(capacity: capacity)))
        self.now = now
    }

    /// Records `notification` if the history keeps it, and hands the entry to every follower.
    ///
    /// Callers may overlap (the daemon actor, a reporter's task): followers still get entries in order.
    package func receive(_ notification: DaemonNotification) {
        recording.withLock { _ in record(notification) }
    }

    private func record(_ notification: DaemonNotification) {
        let recorded = state.withLock { state -> (entry: EventEntry, followers: [Int: AsyncStream<String>.Continuation])? in
            state.history.record(notification, at: now()).map { ($0, state.followers) }
        }
        guard let recorded, !recorded.followers.isEmpty else { return }
        // Yielding wakes a follower's task, which takes that task's lock; cancelling the task
        // holds it while the termination handler takes ours: so never yield under our lock.
        let line = recorded.entry.jsonLine()
        for (id, follower) in recorded.followers {
            switch follower.yield(line) {
            case .enqueued:
                break
            case .dropped:
                state.withLock { _ = $0.followers.removeValue(forKey: id) }
                follower.finish()
            case .terminated:
                state.withLock { _ = $0.followers.removeValue(forKey: id) }
            @unknown default:
                break
            }
        }
    }

    /// Every kept entry, oldest first.
    package var entries: [EventEntry] {
        state.withLock { $0.history.entries }
    }

    /// The reply to `events`.
    package func reply() -> EventHistoryReply {
        EventHistoryReply(capacity: capacity, events: entries)
    }

    /// Each new entry as a JSON line, as it is recorded; first the kept entries numbered after
    /// `sequence`, when given. The stream ends when the follower falls more than
    /// ``followerBacklog`` lines behind, or at ``finish()``.
    package func follow(after sequence: UInt64?) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(followerBacklog))
        let id: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            // Safe under the lock: nobody reads the new stream yet, so yielding wakes no task.
            if let sequence {
                for entry in state.history.entries(after: sequence) { continuation.yield(entry.jsonLine()) }
            }
            defer { state.nextFollower += 1 }
            state.followers[state.nextFollower] = continuation
            return state.nextFollower
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.followers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Followers currently streaming.
    package var followerCount: Int {
        state.withLock { $0.followers.count }
    }

    /// Ends every follower's stream; later ones end at once. Told when the daemon stops.
    package func finish() {
        let followers = state.withLock { state in
            state.isFinished = true
            defer { state.followers = [:] }
            return Array(state.followers.values)
        }
        for follower in followers { follower.finish() }
    }
}
