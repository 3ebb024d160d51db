import Foundation
import Synchronization

/// The OTLP/HTTP collector double (scripts/otlp-collector/collector.py) on 127.0.0.1, a child
/// process on the venv's Python: it parses every export with the official OTLP definitions,
/// refuses what breaks OTLP/JSON, records every request and answers as scripted. It can go down
/// (``stop()``: connections refused) and come back on the same port (``restart()``); each run
/// records afresh, so what a test reads after a restart came after it.
final class CollectorDouble: Sendable {
    let port: Int

    private struct State {
        var child: ChildProcess?
        /// While down: the port, held (``PortHold``).
        var hold: Int32?
    }

    private let state: Mutex<State>

    /// What the reporter is configured with: exports go to `endpoint/v1/logs` and `/v1/metrics`.
    var endpoint: String { "http://127.0.0.1:\(port)" }

    private init(child: ChildProcess, port: Int) {
        self.port = port
        state = Mutex(State(child: child))
    }

    deinit {
        state.withLock { state in
            state.child?.kill()
            if let hold = state.hold { Glibc.close(hold) }
        }
    }

    /// Starts the double on `port` (0: any free one).
    static func start(port: Int = 0) async throws -> CollectorDouble {
        let (child, port) = try await launch(port: port)
        return CollectorDouble(child: child, port: port)
    }

    private static func launch(port: Int) async throws -> (ChildProcess, Int) {
        guard let python = CollectorInterpreter.path else { throw TestFailure(CollectorInterpreter.skipped.rawValue) }
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: python, arguments: [CollectorInterpreter.script, "--port", String(port)])
        } catch {
            throw TestFailure("cannot start the collector double on \(python): \(error)")
        }
        do {
            // Importing protobuf takes a while on a busy machine.
            let line = try await eventuallyValue(timeout: .seconds(30), "the collector double to listen") { () -> String? in
                if let first = child.stdout.lines.first { return first }
                if child.exitStatus != nil && child.stdout.isFinished {
                    throw TestFailure("the collector double (\(python)) exited with \(child.exitStatus ?? 0) before listening")
                }
                return nil
            }
            let words = line.split(separator: " ")
            guard words.count == 2, words[0] == "listening", let listening = Int(words[1]) else {
                throw TestFailure("the collector double said \(line), not `listening PORT`")
            }
            return (child, listening)
        } catch {
            child.kill()
            throw TestFailure("\(error)\n\(child.stderr.text.suffix(3000))")
        }
    }

    // MARK: Outages

    /// Ends the double: connections to its port are refused, and requests in flight go unanswered.
    func stop() async {
        guard let child = state.withLock({ state in defer { state.child = nil }; return state.child }) else { return }
        child.terminate()
        if (try? await child.waitForExit(timeout: .seconds(5))) == nil { child.kill() }
        _ = try? await child.waitForExit(timeout: .seconds(5))
        let hold = PortHold.take(port: port)
        state.withLock { $0.hold = hold }
    }

    /// Starts the double again on its port, with nothing recorded and nothing scripted.
    func restart() async throws {
        await stop()
        releaseHold()
        let (child, _) = try await Self.launch(port: port)
        state.withLock { $0.child = child }
    }

    /// Ends the double for good and lets its port go.
    func close() async {
        await stop()
        releaseHold()
    }

    private func releaseHold() {
        if let hold = state.withLock({ state in defer { state.hold = nil }; return state.hold }) { Glibc.close(hold) }
    }

    // MARK: What it took

    /// The log records of the requests answered 2xx; `acceptedOnly: false` adds those of every
    /// request that parsed (an outage's 503s, say).
    func logRecords(acceptedOnly: Bool = true) async throws -> [CollectedLogRecord] {
        try await get(acceptedOnly ? "/logs?typed=1" : "/logs?typed=1&all=1")
    }

    /// The data points of the requests answered 2xx; `acceptedOnly: false` as for ``logRecords(acceptedOnly:)``.
    func metricPoints(acceptedOnly: Bool = true) async throws -> [CollectedMetricPoint] {
        try await get(acceptedOnly ? "/metrics?typed=1" : "/metrics?typed=1&all=1")
    }

    /// Every request since the double started or was reset, refused, hanging and answered alike.
    func requests() async throws -> [CollectedRequest] {
        try await get("/requests")
    }

    // MARK: How it answers

    /// Answers the next valid export requests with `answers`, in order, in place of any earlier script.
    func script(_ answers: [ScriptedAnswer]) async throws {
        struct Control: Encodable { var answers: [ScriptedAnswer] }
        try await post("/control", JSONEncoder().encode(Control(answers: answers)))
    }

    /// Answers every request hanging so far (200).
    func releaseHanging() async throws {
        try await post("/control", Data(#"{"hang": false}"#.utf8))
    }

    /// Forgets every request and the script, and answers the hanging requests.
    func reset() async throws {
        try await post("/reset", Data("{}".utf8))
    }

    // MARK: HTTP

    private func get<T: Decodable>(_ target: String) async throws -> T {
        let response = try await RawHTTP.request("GET", target, port: port)
        guard response.status == 200 else { throw TestFailure("GET \(target) on the collector double: \(response.status) \(response.body)") }
        do {
            return try JSONDecoder().decode(T.self, from: Data(response.body.utf8))
        } catch {
            throw TestFailure("GET \(target) on the collector double: \(error)\n\(response.body.prefix(2000))")
        }
    }

    private func post(_ target: String, _ body: Data) async throws {
        let response = try await RawHTTP.request(
            "POST", target, port: port, headers: [("Content-Type", "application/json")], body: Array(body))
        guard response.status == 200 else { throw TestFailure("POST \(target) on the collector double: \(response.status) \(response.body)") }
    }
}

/// Runs `body` with a collector double started on any free port, and always ends it.
func withCollectorDouble<R>(_ body: (CollectorDouble) async throws -> R) async throws -> R {
    let collector = try await CollectorDouble.start()
    do {
        let result = try await body(collector)
        await collector.close()
        return result
    } catch {
        await collector.close()
        throw error
    }
}
