import BeaconDomain
import BeaconStorage
import Synchronization

/// Where the daemon's audit records go, and where they are read back: with the journal's commits
/// when there is a journal; in memory, bounded, when there is none or while it is out of use.
/// Reads of the journal's audit (the telemetry exporter's next batch, status) take a read-only
/// connection of their own on NIO's blocking pool, so they never wait for a commit nor hold one up.
final class AuditLog: Sendable {
    private let journal: JournalWriter
    private let directory: String?
    private let memory: Mutex<AuditRing>
    private let reader = Mutex<SQLiteAuditReader?>(nil)
    private let wallNow: @Sendable () -> Milliseconds

    /// - Parameter directory: the state directory whose journal keeps the audit; nil keeps it in memory.
    init(journal: JournalWriter, directory: String?, memoryBounds: AuditBounds = .inMemory, wallNow: @escaping @Sendable () -> Milliseconds) {
        self.journal = journal
        self.directory = journal.status.isConfigured ? directory : nil
        memory = Mutex(AuditRing(bounds: memoryBounds))
        self.wallNow = wallNow
    }

    var isDurable: Bool { directory != nil }

    /// Records of no delivery (a session's start or end, events that never fired): with the next commit.
    func record(_ records: [AuditRecord]) {
        guard !records.isEmpty else { return }
        journal.submit([], audit: records) { result in self.keep(records, unless: result) }
    }

    /// Records the journal did not write (there is none, it is out of use, the write failed) stay in memory.
    func keep(_ records: [AuditRecord], unless written: Result<Void, JournalError>?) {
        guard !records.isEmpty else { return }
        if case .success? = written { return }
        let now = wallNow()
        memory.withLock { $0.append(records, wallNow: now) }
    }

    /// The telemetry exporter's next records: the journal's after `sequence`, or, without one, memory's.
    func entries(after sequence: Int64, limit: Int) async -> Result<[AuditEntry], JournalError> {
        guard isDurable else { return .success(Array(memory.withLock { $0.entries(after: sequence, limit: limit) })) }
        return await read { reader throws(JournalError) in try reader.entries(after: sequence, limit: limit) }
    }

    /// The exporter sent every record up to `sequence`: written with the journal's next commit.
    func markExported(through sequence: Int64) {
        guard isDurable else { return memory.withLock { $0.markExported(through: sequence) } }
        journal.markAuditExported(through: sequence)
    }

    /// Where the exporter stopped, as kept: where it starts after a restart.
    func exportedThrough() async -> Int64 {
        guard isDurable else { return memory.withLock { $0.exportedThrough } }
        return (try? await read { reader throws(JournalError) in try reader.summary() }.get().exportedThrough) ?? 0
    }

    /// The `audit` control line's answer: the journal's directory, whose file `beaconctl audit`
    /// reads itself, or the records in memory that `query` asks for.
    func reply(to query: AuditQuery) -> AuditReply {
        guard let directory else { return AuditReply(storage: "memory", records: memory.withLock { query.select($0.entries) }.map(\.record)) }
        return AuditReply(storage: "journal", directory: directory)
    }

    func status() async -> AuditStatus {
        guard isDurable else {
            return memory.withLock { ring in
                AuditStatus(
                    storage: "memory", records: ring.entries.count, bytes: ring.bytes, dropped: ring.dropped,
                    droppedUnexported: ring.droppedUnexported)
            }
        }
        switch await read({ reader throws(JournalError) in try reader.summary() }) {
        case .success(let summary):
            return AuditStatus(
                storage: "journal", records: summary.records, bytes: summary.bytes, dropped: summary.dropped,
                droppedUnexported: summary.droppedUnexported)
        case .failure(let error):
            return AuditStatus(storage: "journal", problem: error.reason)
        }
    }

    /// Runs `body` on the read-only connection, opened on first use, on the blocking pool.
    private func read<Value: Sendable>(
        _ body: @escaping @Sendable (SQLiteAuditReader) throws(JournalError) -> Value
    ) async -> Result<Value, JournalError> {
        guard let directory else { return .failure(JournalError(reason: "no state directory")) }
        do {
            return .success(
                try await BlockingPool.run(
                    { () throws(JournalError) -> Value in
                        try self.reader.withLock { held throws(JournalError) -> Value in
                            if held == nil { held = try SQLiteAuditReader(directory: directory) }
                            guard let reader = held else { throw JournalError(reason: "no audit reader") }
                            return try body(reader)
                        }
                    }, shutDown: JournalError(reason: "shutting down")))
        } catch {
            return .failure(error)
        }
    }
}
