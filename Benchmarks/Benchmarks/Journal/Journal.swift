import BeaconDomain
import BeaconStorage
import BeaconRuntime
import Benchmark
import BenchmarkSchedules

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A journal in a fresh directory under `parent`, saving new deliveries as due, as the daemon
/// does when a tracking event fires: each save is one transaction synced to disk.
final class JournalSaver {
    private let parent: String
    private let batch: Int
    private var directory: String?
    private var journal: SQLiteBeaconJournal?
    private var saved = 0

    init(parent: String, batch: Int) {
        self.parent = parent
        self.batch = batch
    }

    func open() throws {
        var template = Array("\(parent)/bc-journal-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        guard let made else { throw JournalError(reason: "cannot make a directory in \(parent)") }
        directory = made
        journal = try SQLiteBeaconJournal(directory: made, time: .system)
    }

    /// Saves the session's snapshot, as the daemon does after a metadata change or a played stretch.
    func saveSnapshot(_ snapshot: SessionSnapshot) throws {
        try journal?.save([], session: snapshot)
    }

    func saveNext() throws {
        guard let journal else { return }
        let deliveries = (0..<batch).map { _ in
            saved += 1
            let key = BeaconDelivery.Key(
                sessionKey: "benchmark-session", adBreakID: "pod-\(saved / 40)", adID: "ad-\(saved / 10)", event: .impression,
                eventStart: SyntheticSchedule.start + Milliseconds(saved), url: "https://beacons.example/track?n=\(saved)", occurrence: 0)
            return BeaconDelivery(
                key: key, reference: EventReference(adBreakID: key.adBreakID, adIndex: 0, eventIndex: saved % 10),
                dueAt: SyntheticSchedule.start + Milliseconds(saved))
        }
        try journal.save(deliveries, session: nil)
    }

    func close() {
        journal = nil
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
        directory = nil
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(3), maxIterations: 1_000)
    // The temporary directory, and the disk the repository is on (the daemon's state directory
    // is usually on the root file system, which /tmp may not be).
    let packageBuild = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build").path
    for (place, parent) in [("temporary directory", FileManager.default.temporaryDirectory.path), ("package build directory", packageBuild)] {
        for batch in [1, 10] {
            let saver = JournalSaver(parent: parent, batch: batch)
            Benchmark(
                "Journal save of \(batch == 1 ? "1 delivery" : "\(batch) deliveries"), \(place)",
                closure: { benchmark in
                    for _ in benchmark.scaledIterations { try saver.saveNext() }
                },
                setup: { try saver.open() },
                teardown: { saver.close() })
        }
    }
    // One live window's ad breaks with their reporting states: written whole on each change.
    for events in [100, 1_000] {
        let saver = JournalSaver(parent: FileManager.default.temporaryDirectory.path, batch: 0)
        let snapshot = SessionSnapshot(
            endpoints: SessionEndpoints(
                mediaURL: "http://127.0.0.1:4647/live.m3u8?sessid=benchmark", manifestURL: "http://127.0.0.1:4647/session.m3u8",
                trackingURL: "http://127.0.0.1:4647/metadata?sessid=benchmark", sessionID: "benchmark"),
            adBreaks: SyntheticSchedule.document(events: events).adBreaks, dataRange: nil, played: [[SyntheticSchedule.start, SyntheticSchedule.start + 600_000]],
            playhead: SyntheticSchedule.start + 600_000, savedAt: SyntheticSchedule.start)
        Benchmark(
            "Journal save of the session snapshot, \(events) tracking events, temporary directory",
            closure: { benchmark in
                for _ in benchmark.scaledIterations { try saver.saveSnapshot(snapshot) }
            },
            setup: { try saver.open() },
            teardown: { saver.close() })
    }
}
