import Synchronization
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// Recording the daemon's notifications and streaming them to followers.
@Suite(.timeLimit(.minutes(2))) struct EventHistoryRecorderTests {
    /// A clock that moves 1 ms per reading.
    static func steppingClock(from start: Milliseconds = 10_000) -> @Sendable () -> Milliseconds {
        let next = Mutex(start)
        return {
            next.withLock { value in
                defer { value += 1 }
                return value
            }
        }
    }

    static func applied(_ adBreaks: Int, end: Milliseconds) -> DaemonNotification {
        .metadataApplied(adBreaks: adBreaks, dataRange: DataRange(start: 0, end: end), bytes: 100)
    }

    @Test func recordsWhatTheHistoryKeepsStampedByTheClock() {
        let recorder = EventHistoryRecorder(capacity: 8, now: Self.steppingClock())
        recorder.receive(.sessionStarting(mediaURL: "http://m"))
        recorder.receive(.metadataUnchanged(bytes: 3))
        recorder.receive(.metadataFailed(reason: "HTTP 500"))
        #expect(recorder.entries.map(\.name) == ["sessionStarting", "metadataFailed"])
        #expect(recorder.entries.map(\.time) == [10_000, 10_001])
        #expect(recorder.reply() == EventHistoryReply(capacity: 8, events: recorder.entries))
    }

    @Test func metadataRefreshesAreRecordedOnlyWhenTheAdBreakCountChangesOrAfterAFailure() {
        let recorder = EventHistoryRecorder(now: Self.steppingClock())
        recorder.receive(Self.applied(1, end: 1))
        recorder.receive(Self.applied(1, end: 2))
        recorder.receive(Self.applied(2, end: 3))
        recorder.receive(Self.applied(2, end: 4))
        recorder.receive(.metadataFailed(reason: "HTTP 500"))
        recorder.receive(Self.applied(2, end: 5))
        recorder.receive(.sessionEnded(sessionID: "s"))
        recorder.receive(Self.applied(2, end: 6))
        let kept = recorder.entries.map { "\($0.name) \($0.details["adBreaks"] ?? "")" }
        #expect(kept == [
            "metadataApplied 1", "metadataApplied 2", "metadataFailed ", "metadataApplied 2", "sessionEnded ", "metadataApplied 2",
        ])
    }

    @Test func aFollowerGetsEachNewEntryAsAJSONLine() async throws {
        let recorder = EventHistoryRecorder(now: Self.steppingClock())
        recorder.receive(.sessionStarting(mediaURL: "http://before"))
        let stream = recorder.follow(after: nil)
        #expect(recorder.followerCount == 1)
        recorder.receive(.metadataFailed(reason: "HTTP 500"))
        recorder.receive(.drainStarted(inFlight: 0))
        recorder.finish()
        var lines: [String] = []
        for await line in stream { lines.append(line) }
        let entries = try lines.map(EventEntry.decode(jsonLine:))
        #expect(entries.map(\.name) == ["metadataFailed", "drainStarted"])
        #expect(entries.map(\.sequence) == [2, 3])
        #expect(lines[0] == recorder.entries[1].jsonLine())
        #expect(recorder.followerCount == 0)
    }

    /// The daemon and a reporter (what it told the player) record at the same time: a follower
    /// still gets every entry, in the order of its sequence.
    @Test func overlappingCallersReachAFollowerInOrder() async throws {
        let recorder = EventHistoryRecorder(capacity: 4_096, now: Self.steppingClock())
        let stream = recorder.follow(after: nil)
        await withTaskGroup(of: Void.self) { group in
            for caller in 0..<4 {
                group.addTask {
                    for index in 0..<500 { recorder.receive(.lineRejected(reason: "\(caller)-\(index)")) }
                }
            }
        }
        recorder.finish()
        var sequences: [UInt64] = []
        for await line in stream { sequences.append(try EventEntry.decode(jsonLine: line).sequence) }
        #expect(sequences == Array(1...2_000))
    }

    @Test func aFollowerResumesAfterTheLastSequenceItSaw() async throws {
        let recorder = EventHistoryRecorder(capacity: 3, now: Self.steppingClock())
        for index in 0..<5 { recorder.receive(.lineRejected(reason: "\(index)")) }  // keeps 3, 4, 5
        let stream = recorder.follow(after: 3)
        recorder.receive(.lineRejected(reason: "new"))
        recorder.finish()
        var sequences: [UInt64] = []
        for await line in stream { sequences.append(try EventEntry.decode(jsonLine: line).sequence) }
        #expect(sequences == [4, 5, 6])
    }

    @Test func aFollowerThatFallsBehindIsDroppedAndOthersGoOn() async throws {
        let recorder = EventHistoryRecorder(capacity: 4, now: Self.steppingClock())
        let slow = recorder.follow(after: nil)
        let backlog = recorder.followerBacklog
        for index in 0..<backlog { recorder.receive(.lineRejected(reason: "\(index)")) }
        let fresh = recorder.follow(after: nil)
        #expect(recorder.followerCount == 2)
        recorder.receive(.lineRejected(reason: "one too many"))
        #expect(recorder.followerCount == 1)
        // The slow one still gets what it had buffered, then its stream ends.
        var slowCount = 0
        for await _ in slow { slowCount += 1 }
        #expect(slowCount == backlog)
        recorder.finish()
        var freshLines: [String] = []
        for await line in fresh { freshLines.append(line) }
        #expect(try freshLines.map { try EventEntry.decode(jsonLine: $0).details["reason"] } == ["one too many"])
    }

    @Test func aFollowerThatStopsListeningIsForgotten() async throws {
        let recorder = EventHistoryRecorder(now: Self.steppingClock())
        let task = Task {
            for await _ in recorder.follow(after: nil) {}
        }
        try await eventually("the follower registered") { recorder.followerCount == 1 }
        task.cancel()
        await task.value
        #expect(recorder.followerCount == 0)
        recorder.receive(.drainStarted(inFlight: 0))
        #expect(recorder.entries.count == 1)
    }

    /// Cancelling a follower runs its termination handler under its task's lock, while recording
    /// wakes that task: recording must not hold the recorder's lock meanwhile.
    @Test(.timeLimit(.minutes(1)))
    func followersCancelledWhileEntriesAreRecordedDeadlockNothing() async {
        let recorder = EventHistoryRecorder(now: Self.steppingClock())
        for round in 0..<200 {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask { for await _ in recorder.follow(after: nil) {} }
                }
                group.addTask {
                    for index in 0..<100 { recorder.receive(.lineRejected(reason: "\(round).\(index)")) }
                }
                await Task.yield()
                group.cancelAll()
            }
        }
        #expect(recorder.followerCount == 0)
        #expect(recorder.entries.last?.sequence == 20_000)
    }

    @Test func followingAfterFinishEndsAtOnce() async {
        let recorder = EventHistoryRecorder(now: Self.steppingClock())
        recorder.finish()
        var count = 0
        for await _ in recorder.follow(after: 0) { count += 1 }
        #expect(count == 0)
        #expect(recorder.followerCount == 0)
    }
}
