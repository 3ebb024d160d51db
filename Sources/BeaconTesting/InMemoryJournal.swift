import BeaconDomain
import Synchronization

/// A `BeaconJournal` kept in memory, faithful to the protocol, whose calls can be made to throw.
/// Every call is appended to `calls` (and to `log`, when given, to order it against other doubles).
package final class InMemoryJournal: BeaconJournal, Sendable {
    /// A journal method, to make it throw or to look for it in `calls`.
    package enum Call: String, Sendable, CaseIterable {
        case save, unfinishedDeliveries, deliveries, session, prune
    }

    private struct Storage {
        var deliveries: [BeaconDelivery.Key: BeaconDelivery] = [:]
        var sessions: [String: SessionSnapshot] = [:]
        var audit = AuditRing(bounds: .standard)
        var failing: Set<Call> = []
        var calls: [Call] = []
    }

    private let storage = Mutex(Storage())
    private let log: Recorder<String>?

    package init(_ deliveries: [BeaconDelivery] = [], log: Recorder<String>? = nil) {
        self.log = log
        storage.withLock { storage in
            for delivery in deliveries { storage.deliveries[delivery.key] = delivery }
        }
    }

    /// Makes these calls throw from now on (and only these).
    package func fail(_ calls: Set<Call>) { storage.withLock { $0.failing = calls } }

    package var calls: [Call] { storage.withLock { $0.calls } }
    package var allDeliveries: [BeaconDelivery] { storage.withLock { Array($0.deliveries.values) } }
    package func delivery(_ key: BeaconDelivery.Key) -> BeaconDelivery? { storage.withLock { $0.deliveries[key] } }
    package var sessions: [SessionSnapshot] { storage.withLock { Array($0.sessions.values) } }
    /// The audit records saved, oldest first.
    package var auditRecords: [AuditRecord] { storage.withLock { $0.audit.entries.map(\.record) } }

    private func enter(_ call: Call) throws(JournalError) {
        let fails = storage.withLock { storage in
            storage.calls.append(call)
            return storage.failing.contains(call)
        }
        if fails { throw JournalError(reason: "\(call.rawValue) failed: disk full") }
    }

    package func save(_ deliveries: [BeaconDelivery], session: SessionSnapshot?, audit: AuditChanges) throws(JournalError) {
        try enter(.save)
        storage.withLock { storage in
            for delivery in deliveries { storage.deliveries[delivery.key] = delivery }
            if let session { storage.sessions[session.endpoints.sessionKey] = session }
            storage.audit.append(audit.records, wallNow: audit.records.last?.at ?? 0)
            if let sequence = audit.exportedThrough { storage.audit.markExported(through: sequence) }
        }
        for delivery in deliveries { log?.append("journal \(delivery.state.rawValue) \(delivery.key.url)") }
    }

    package func unfinishedDeliveries() throws(JournalError) -> [BeaconDelivery] {
        try enter(.unfinishedDeliveries)
        return storage.withLock { storage in
            storage.deliveries.values.filter { !$0.state.isFinished }.sorted { ($0.dueAt, $0.key.url) < ($1.dueAt, $1.key.url) }
        }
    }

    package func deliveries(ofSession sessionID: String) throws(JournalError) -> [BeaconDelivery] {
        try enter(.deliveries)
        return storage.withLock { $0.deliveries.values.filter { $0.key.sessionKey == sessionID } }
    }

    package func session(sessionID: String?, mediaURL: String, savedSince: Milliseconds) throws(JournalError) -> SessionSnapshot? {
        try enter(.session)
        return storage.withLock { storage in
            storage.sessions.values
                .filter { snapshot in
                    let matches = sessionID.map { snapshot.endpoints.sessionID == $0 } ?? (snapshot.endpoints.mediaURL == mediaURL)
                    return matches && snapshot.savedAt >= savedSince
                }
                .max { $0.savedAt < $1.savedAt }
        }
    }

    package func prune(before cutoff: Milliseconds) throws(JournalError) {
        try enter(.prune)
        storage.withLock { storage in
            storage.deliveries = storage.deliveries.filter { !$0.value.state.isFinished || $0.value.updatedAt >= cutoff }
            let busy = Set(storage.deliveries.values.filter { !$0.state.isFinished }.map(\.key.sessionKey))
            storage.sessions = storage.sessions.filter { $0.value.savedAt >= cutoff || busy.contains($0.key) }
        }
    }
}
