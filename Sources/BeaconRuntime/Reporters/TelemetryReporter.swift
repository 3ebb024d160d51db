import BeaconDomain
import BeaconHTTP
import Logging

/// The audit and the daemon's metrics, pushed to an OpenTelemetry collector over OTLP/HTTP:
/// ``TelemetryReporting`` decides, ``TelemetryEdge`` reads the audit and the metrics and sends the
/// batches (on the reporter's own HTTP client, gzip unless told otherwise, the configured headers
/// never logged), and the runner does the rest as for every reporter.
package typealias TelemetryReporter = ReporterRunner<TelemetryEdge>

extension ReporterRunner where Edge == TelemetryEdge {
    /// - Parameters:
    ///   - instanceID: `service.instance.id`, derived from the machine id and the instance name.
    ///   - machine: `uname`'s machine, for `host.arch`.
    ///   - sources: the audit and the metrics, bound once the daemon is built.
    package init(
        settings: TelemetrySettings, version: String, instance: String, instanceID: String, machine: String, sources: TelemetrySources,
        client: any HTTPClient, time: TimeSource, random: any RandomNumberGenerator & Sendable, logger: Logger, drainTimeout: Duration,
        quiet: Bool = false
    ) {
        let resource = TelemetryResource.make(
            version: version, instanceID: instanceID, instance: instance, machine: machine, operatorAttributes: settings.resourceAttributes)
        self.init(
            core: TelemetryReporting(settings: settings, resource: resource, version: version, now: time.now(), wallNow: time.wallNow()),
            edge: TelemetryEdge(settings: settings, sources: sources, client: client, time: time, logger: logger),
            time: time, random: random, logger: logger, drainTimeout: drainTimeout, quiet: quiet, publish: { _ in })
    }
}

/// The telemetry's reads and requests.
package struct TelemetryEdge: ReporterEdge {
    /// The collector's answer is a short JSON object; more is not read.
    static let maxResponseBytes = 64 << 10

    let settings: TelemetrySettings
    let sources: TelemetrySources
    let client: any HTTPClient
    let time: TimeSource
    let logger: Logger

    package var name: ReporterName { .telemetry }

    package func perform(_ effect: TelemetryReporting.Effect, quiet: Bool) async -> Performed<TelemetryReporting.Answer> {
        guard let sources = sources.current else { return Performed(answer: .unreadable("the daemon is starting")) }
        switch effect {
        case .readAudit(let after, let limit):
            let from = if let after { after } else { await sources.audit.exportedThrough() }
            switch await sources.audit.entries(after: from, limit: limit) {
            case .success(let entries): return Performed(answer: .audit(entries, after: from))
            case .failure(let error): return Performed(answer: .unreadable(error.reason))
            }
        case .readMetrics:
            return Performed(answer: .metrics(await sources.metrics()))
        case .send(let batch):
            return await send(batch, quiet: quiet)
        case .markExported(let sequence):
            sources.audit.markExported(through: sequence)
            return Performed(answer: nil)
        }
    }

    private func send(_ batch: TelemetryBatch, quiet: Bool) async -> Performed<TelemetryReporting.Answer> {
        let summary = "\(batch.signal) \(batch.count) \(batch.signal == .logs ? "records" : "metrics") \(Self.withoutQuery(url(batch.signal)))"
        guard !quiet else { return Performed(answer: .notSent, counter: "notSent") }
        var headers = settings.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        headers.append((name: "Content-Type", value: OTLPJSON.contentType))
        var body = batch.body
        if settings.compression == .gzip {
            body = Gzip.compress(body)
            headers.append((name: "Content-Encoding", value: "gzip"))
        }
        let request = HTTPClientRequest(method: .post, url: url(batch.signal), headers: headers, body: body, maxResponseBytes: Self.maxResponseBytes)
        let requestedAt = time.wallNow()
        let result: Result<HTTPClientResponse, HTTPClientError>
        do throws(HTTPClientError) {
            result = .success(try await client.send(request))
        } catch {
            result = .failure(error)
        }
        let answer = switch result {
        case .success(let response): "HTTP \(response.status)"
        case .failure(let error): error.description
        }
        let succeeded = (try? result.get().isSuccess) == true
        logger.debug("TELEMETRY \(summary) bytes=\(body.count) attempt=\(batch.attempts + 1) answer=\"\(answer)\"")
        return Performed(
            answer: .sent(result), request: summary, requestedAt: requestedAt, result: answer, counter: succeeded ? "sent" : "failed")
    }

    private func url(_ signal: OTLPSignal) -> String {
        let endpoint = settings.endpoint ?? ""
        return (endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint) + signal.path
    }

    /// An endpoint as shown: its query may carry a key.
    private static func withoutQuery(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }

    package func status(of core: TelemetryReporting, enabled: Bool, quiet: Bool, draining: Bool, wallOffset: Milliseconds) -> ReporterStatus {
        let state = switch core.logs {
        case _ where !enabled: "disabled"
        case .retrying: "retrying"
        case .busy: "exporting"
        case .idle: core.caughtUp ? "caught up" : "idle"
        }
        var details: [String: String] = ["endpoint": Self.withoutQuery(settings.endpoint ?? "-")]
        if let mark = core.exportedThrough { details["exportedThrough"] = "\(mark)" }
        if let problem = core.lastProblem { details["lastProblem"] = problem }
        if case .retrying(let batch, let at) = core.logs {
            details["retryAt"] = UTCTime.format(at + wallOffset)
            details["attempts"] = "\(batch.attempts)"
        }
        return ReporterStatus(
            name: name, configured: settings.isConfigured, enabled: enabled, state: state,
            failuresInARow: { if case .retrying(let batch, _) = core.logs { batch.attempts } else { 0 } }(), counters: core.counters,
            details: details)
    }
}
