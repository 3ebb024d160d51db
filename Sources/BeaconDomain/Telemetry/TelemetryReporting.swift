/// The telemetry reporter's rules as a value: every `log-interval` it reads the audit after its
/// export mark and sends the records as OTLP log records, batch after batch until caught up;
/// every `export-interval` it reads the daemon's metrics and sends them. Delivery as OTLP/HTTP
/// says (``OTLPRetryPolicy``): log batches are retried while the audit keeps them, so a box
/// offline for a day sends its audit, oldest first, when it comes back; a metrics export that
/// fails is replaced by the next one, which carries the same cumulative values.
///
/// It takes no notification: what it sends waits in the audit, not in its queue, so nothing of
/// it ever delays a beacon, a metadata request or a tick. Disabled or quiet, it reads nothing and
/// the records wait.
package struct TelemetryReporting: ReporterCore {
    /// None comes: ``input(from:)`` takes no notification.
    package struct Input: Sendable {}

    package enum Effect: Sendable, Equatable {
        /// The audit's records after `sequence` (nil: after the export mark kept), at most `limit`.
        case readAudit(after: Int64?, limit: Int)
        /// The daemon's `/metrics` text.
        case readMetrics
        case send(TelemetryBatch)
        /// The collector took every record up to `sequence` (or it was dropped, counted).
        case markExported(through: Int64)
    }

    package enum Answer: Sendable {
        /// The records read, and the export mark they were read after.
        case audit([AuditEntry], after: Int64)
        case unreadable(String)
        case metrics(String)
        case sent(Result<HTTPClientResponse, HTTPClientError>)
        /// Quiet or disabled: nothing left.
        case notSent
    }

    /// Where one signal stands.
    package enum Phase: Sendable, Equatable {
        case idle(next: Milliseconds)
        /// An effect of it is under way.
        case busy
        case retrying(TelemetryBatch, at: Milliseconds)
    }

    package let settings: TelemetrySettings
    package let resource: OTLPResource
    package let scope: OTLPScope
    /// When the daemon started, on the wall clock: the start of every cumulative metric.
    package let startedAt: Milliseconds
    package private(set) var logs: Phase
    package private(set) var metrics: Phase
    /// The last audit record the collector took or that was dropped; nil until the kept mark is read.
    package private(set) var exportedThrough: Int64?
    package private(set) var enabled = true
    package private(set) var ending = false
    /// The last read of the audit found nothing more to send.
    package private(set) var caughtUp = false
    /// `records`, `rejected`, `dropped`, `batches`, `metricExports`, `metricsDropped`, `retries`.
    package private(set) var counters: [String: Int] = [:]
    package private(set) var lastProblem: String?
    private let logPolicy: OTLPRetryPolicy
    private let metricsPolicy: OTLPRetryPolicy

    /// Metrics first go out one log interval after the start, logs at once.
    package init(settings: TelemetrySettings, resource: OTLPResource, version: String, now: Milliseconds, wallNow: Milliseconds) {
        self.settings = settings
        self.resource = resource
        scope = OTLPScope(version: version)
        startedAt = wallNow
        logs = .idle(next: now)
        metrics = .idle(next: now + settings.logInterval.milliseconds)
        // Log records are the audit: retried for as long as it keeps them. A metrics export gives
        // way to the next after a few tries.
        logPolicy = OTLPRetryPolicy(maxRetries: .max)
        metricsPolicy = OTLPRetryPolicy(maxRetries: 3)
    }

    package static func input(from notification: DaemonNotification) -> Input? { nil }

    package mutating func take(_ input: Input, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>] { [] }

    package mutating func wake(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>] {
        guard enabled else { return [] }
        var actions: [ReporterAction<Effect>] = []
        switch logs {
        case .idle(let next) where next <= now:
            logs = .busy
            actions.append(.perform(.readAudit(after: exportedThrough, limit: settings.batchSize)))
        case .retrying(let batch, let at) where at <= now:
            logs = .busy
            actions.append(.perform(.send(batch)))
        default: break
        }
        switch metrics {
        case .idle(let next) where next <= now && !ending:
            metrics = .busy
            actions.append(.perform(.readMetrics))
        case .retrying(let batch, let at) where at <= now:
            metrics = .busy
            actions.append(.perform(.send(batch)))
        default: break
        }
        return actions
    }

    package mutating func record(
        _ answer: Answer, of effect: Effect, now: Milliseconds, wallNow: Milliseconds, using random: inout some RandomNumberGenerator
    ) -> [ReporterAction<Effect>] {
        switch (effect, answer) {
        case (.readAudit, .audit(let entries, let after)):
            exportedThrough = after
            guard let batch = logBatch(entries) else {
                caughtUp = true
                logs = .idle(next: now + settings.logInterval.milliseconds)
                return []
            }
            return [.perform(.send(batch))]
        case (.readMetrics, .metrics(let text)):
            let exported = PrometheusExposition(parsing: text).otlpMetrics(start: startedAt, time: wallNow)
            let body = OTLPJSON.metricsRequest(resource: resource, scope: scope, metrics: exported)
            return [.perform(.send(TelemetryBatch(signal: .metrics, body: body, count: exported.count)))]
        case (.readAudit, .unreadable(let reason)), (.readMetrics, .unreadable(let reason)):
            lastProblem = reason
            rest(effect, now: now)
            return [.log(LogLine(.warning, "telemetry: cannot read what to export: \(reason)"))]
        case (.send(var batch), .sent(let result)):
            batch.attempts += 1
            return delivered(batch, result, now: now, wallNow: wallNow, using: &random)
        case (.send, .notSent), (.readAudit, .notSent), (.readMetrics, .notSent):
            rest(effect, now: now)
            return []
        default:
            return []
        }
    }

    package mutating func setEnabled(_ enabled: Bool, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>] {
        self.enabled = enabled
        // Switched on, what waits in the audit goes at once.
        if enabled, case .idle = logs { logs = .idle(next: now) }
        return [.log(LogLine(.info, "telemetry reporter \(enabled ? "enabled" : "disabled")"))]
    }

    /// The daemon finished: one last look at the audit (its end of session), within the drain timeout.
    package mutating func end(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>] {
        ending = true
        caughtUp = false
        if case .idle = logs { logs = .idle(next: now) }
        if case .retrying = metrics { metrics = .idle(next: .max) }
        return wake(now: now, wallNow: wallNow)
    }

    package var nextWake: Milliseconds? {
        guard enabled else { return nil }
        return [logs, metrics].compactMap { phase -> Milliseconds? in
            switch phase {
            case .idle(let next): next == .max ? nil : next
            case .retrying(_, let at): at
            case .busy: nil
            }
        }.min()
    }

    /// Ending, once the audit was read to its end; a log batch being retried waits in the audit
    /// for the next run.
    package var isSettled: Bool {
        guard ending else { return false }
        if !enabled { return true }
        if case .retrying = logs { return metrics != .busy }
        return caughtUp && logs != .busy && metrics != .busy
    }

    /// The records as one batch, cut to ``TelemetrySettings/maxBatchBytes``; nil when there are none.
    private func logBatch(_ entries: [AuditEntry]) -> TelemetryBatch? {
        var entries = entries
        while !entries.isEmpty {
            let body = OTLPJSON.logsRequest(resource: resource, scope: scope, records: entries.map(\.record.otlpLogRecord))
            if body.count <= TelemetrySettings.maxBatchBytes || entries.count == 1 {
                return TelemetryBatch(signal: .logs, body: body, count: entries.count, lastSequence: entries.last?.sequence)
            }
            entries.removeLast(entries.count / 2)
        }
        return nil
    }

    /// A batch's answer, as OTLP/HTTP's delivery rules read it.
    private mutating func delivered(
        _ batch: TelemetryBatch, _ result: Result<HTTPClientResponse, HTTPClientError>, now: Milliseconds, wallNow: Milliseconds,
        using random: inout some RandomNumberGenerator
    ) -> [ReporterAction<Effect>] {
        let policy = batch.signal == .logs ? logPolicy : metricsPolicy
        switch policy.verdict(on: result, of: batch.signal, attempts: batch.attempts, now: now, wallNow: wallNow, using: &random) {
        case .accepted(let rejected, let message):
            lastProblem = nil
            count(batch.signal == .logs ? "records" : "metricExports", batch.signal == .logs ? batch.count - Int(rejected) : 1)
            count("batches", 1)
            var actions: [ReporterAction<Effect>] = []
            if rejected > 0 {
                count("rejected", Int(rejected))
                actions.append(.log(LogLine(.warning, "telemetry: the collector rejected \(rejected) of \(batch.count) \(batch.signal) records: \(message ?? "no message")")))
            }
            return actions + moveOn(after: batch, now: now)
        case .dropped(let reason):
            lastProblem = reason
            count(batch.signal == .logs ? "dropped" : "metricsDropped", batch.signal == .logs ? batch.count : 1)
            let line = LogLine(.warning, "telemetry: \(batch.signal) batch of \(batch.count) dropped: \(reason)")
            return [.log(line)] + moveOn(after: batch, now: now)
        case .retry(let at, let reason):
            lastProblem = reason
            count("retries", 1)
            if batch.signal == .logs { logs = .retrying(batch, at: at) } else { metrics = .retrying(batch, at: at) }
            // The first failure is told; the ones after are counted, so an outage writes one line.
            guard batch.attempts == 1 else { return [] }
            return [.log(LogLine(.warning, "telemetry: \(batch.signal) export failed, retrying: \(reason)"))]
        }
    }

    /// After a batch's end: logs mark their progress and read on at once while a batch was full;
    /// metrics wait for the next export.
    private mutating func moveOn(after batch: TelemetryBatch, now: Milliseconds) -> [ReporterAction<Effect>] {
        guard batch.signal == .logs, let last = batch.lastSequence else {
            metrics = .idle(next: now + settings.exportInterval.milliseconds)
            return []
        }
        exportedThrough = last
        let full = batch.count >= settings.batchSize
        caughtUp = !full
        logs = .idle(next: full ? now : now + settings.logInterval.milliseconds)
        return [.perform(.markExported(through: last))]
    }

    /// Nothing more of this signal until its next interval.
    private mutating func rest(_ effect: Effect, now: Milliseconds) {
        let isMetrics = switch effect {
        case .readMetrics: true
        case .send(let batch): batch.signal == .metrics
        case .readAudit, .markExported: false
        }
        if isMetrics {
            metrics = .idle(next: now + settings.exportInterval.milliseconds)
        } else {
            caughtUp = true
            logs = .idle(next: now + settings.logInterval.milliseconds)
        }
    }

    private mutating func count(_ name: String, _ amount: Int) {
        counters[name, default: 0] += amount
    }
}
