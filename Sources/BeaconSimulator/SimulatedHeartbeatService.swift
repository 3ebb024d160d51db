import BeaconDomain
import BeaconRuntime
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A streaming service's heartbeat on loopback, for the tests: it checks each heartbeat against
/// the README's contract, records it, and answers as the test scripts (a sync interval, timeline
/// events, an error status, a slow answer, a dropped connection, no listener at all); its
/// concurrency endpoint counts stream starts and stops and answers 200, 409 or 429 as told.
package final class SimulatedHeartbeatService: Sendable {
    package static let heartbeatPath = "/heartbeat"
    package static let concurrencyPath = "/concurrency"

    /// One timeline event of an answer's `events`.
    package enum Event: Sendable, Equatable {
        case blackout(action: String, blackoutURL: String?)
        case liveProgramStart
        case liveEventEnd
        case overflowEventEnd
    }

    /// How one heartbeat is answered.
    package indirect enum Answer: Sendable, Equatable {
        /// 200 with `{"syncInterval": ms, "events": [...]}` (each key only when given).
        case success(syncInterval: Milliseconds? = nil, events: [Event] = [])
        /// An empty answer with this status: a 5xx, 401, 403...
        case status(Int)
        /// `answer`, after `delay`: slower than the client's timeout, it is a timeout.
        case slow(Duration, Answer)
        /// The connection dropped before any answer: a network error.
        case dropConnection
    }

    /// One heartbeat as it arrived, read by the contract; ``violations`` says where it broke it.
    package struct Heartbeat: Sendable {
        package var token: String?
        package var deviceID: String?
        package var contentID: String?
        package var catalogType: String?
        package var primaryContentID: String?
        package var sessionID: String?
        package var event: String?
        package var state: String?
        /// Epoch milliseconds on program date time, content seconds on media time.
        package var playhead: Double?
        package var bookmark: Double?
        package var multiStream: Bool?
        package var trackViewersCount: Bool?
        package var ts: Double?
        /// The headers as sent, for extra headers a test configured.
        package var headers: [(name: String, value: String)]
        /// Each way the request broke the contract; empty for a valid heartbeat (answered as
        /// scripted), else it was answered 400.
        package var violations: [String]
        package var receivedAt: ContinuousClock.Instant
    }

    /// One request to the concurrency endpoint.
    package struct ConcurrencyRequest: Sendable, Equatable {
        package var deviceID: String?
        package var contentID: String?
        package var event: String?
        package var violations: [String]
    }

    private struct State {
        var script: [Answer] = []
        var answer: Answer = .success()
        var concurrencyStatus = 200
        var heartbeats: [Heartbeat] = []
        var concurrencyRequests: [ConcurrencyRequest] = []
        var server: HTTPServer?
    }

    /// The token every heartbeat must carry in `X-Heartbeat-Token`, if any.
    package let token: String?
    package let port: Int
    private let state: Mutex<State>

    /// Where heartbeats go (`endpoint`).
    package var endpoint: String { "http://127.0.0.1:\(port)\(Self.heartbeatPath)" }
    /// Where stream starts and stops go (`concurrency-endpoint`).
    package var concurrencyEndpoint: String { "http://127.0.0.1:\(port)\(Self.concurrencyPath)" }

    /// Starts the service on a free loopback port; with `token`, a heartbeat without it breaks the contract.
    package static func start(token: String? = nil) async throws -> SimulatedHeartbeatService {
        let box = ServiceBox<SimulatedHeartbeatService>()
        let server = try await HTTPServer.start(host: "127.0.0.1", port: 0) { request in
            await box.service?.respond(to: request) ?? .status(503)
        }
        let service = SimulatedHeartbeatService(token: token, port: server.port, server: server)
        box.service = service
        return service
    }

    private init(token: String?, port: Int, server: HTTPServer) {
        self.token = token
        self.port = port
        self.state = Mutex(State(server: server))
    }

    // MARK: The script

    /// Answers the next heartbeats with `answers`, one each in order, then with ``answerFromThenOn(_:)``'s.
    package func script(_ answers: [Answer]) {
        state.withLock { $0.script += answers }
    }

    /// How heartbeats are answered once the script ran out (200 with an empty body at first).
    package func answerFromThenOn(_ answer: Answer) {
        state.withLock { $0.answer = answer }
    }

    /// The concurrency endpoint's status from now on: 200 (a stream left), 409 or 429 (none).
    package func answerConcurrency(_ status: Int) {
        state.withLock { $0.concurrencyStatus = status }
    }

    /// Stops listening: connections are refused until ``acceptConnections()``.
    package func refuseConnections() async {
        let server = state.withLock { state in
            defer { state.server = nil }
            return state.server
        }
        await server?.stop()
    }

    /// Listens again, on the same port.
    package func acceptConnections() async throws {
        let box = ServiceBox<SimulatedHeartbeatService>()
        box.service = self
        let server = try await HTTPServer.start(host: "127.0.0.1", port: port) { request in
            await box.service?.respond(to: request) ?? .status(503)
        }
        state.withLock { $0.server = server }
    }

    package func stop() async {
        await refuseConnections()
    }

    // MARK: What arrived

    package func heartbeats() -> [Heartbeat] { state.withLock { $0.heartbeats } }
    package func concurrencyRequests() -> [ConcurrencyRequest] { state.withLock { $0.concurrencyRequests } }

    // MARK: Answering

    private func respond(to request: HTTPServer.Request) async -> HTTPServer.Response {
        switch request.path {
        case Self.heartbeatPath:
            let heartbeat = Self.read(request, token: token)
            let answer = state.withLock { state -> Answer? in
                state.heartbeats.append(heartbeat)
                guard heartbeat.violations.isEmpty else { return nil }
                return state.script.isEmpty ? state.answer : state.script.removeFirst()
            }
            guard let answer else { return .text(heartbeat.violations.joined(separator: "\n"), status: 400) }
            return await Self.response(answer)
        case Self.concurrencyPath:
            let concurrency = Self.readConcurrency(request)
            let status = state.withLock { state in
                state.concurrencyRequests.append(concurrency)
                return state.concurrencyStatus
            }
            return concurrency.violations.isEmpty ? .status(status) : .text(concurrency.violations.joined(separator: "\n"), status: 400)
        default:
            return .status(404)
        }
    }

    private static func response(_ answer: Answer) async -> HTTPServer.Response {
        switch answer {
        case .success(let syncInterval, let events):
            var members: [String] = []
            if let syncInterval { members.append(#""syncInterval":\#(syncInterval)"#) }
            if !events.isEmpty { members.append(#""events":[\#(events.map(\.json).joined(separator: ","))]"#) }
            return .json("{\(members.joined(separator: ","))}")
        case .status(let status):
            return .status(status)
        case .slow(let delay, let answer):
            return await .delayed(delay, response(answer))
        case .dropConnection:
            return .cutOff([], after: 0)
        }
    }

    // MARK: The contract

    static let events: Set = ["start", "progress", "stateChange", "stop"]
    static let states: Set = ["playing", "paused", "buffering", "seeking", "stopped", "error"]

    /// The heartbeat in `request`, with every way it breaks the contract: `POST`, `Content-Type:
    /// application/json`, `X-Heartbeat-Token`, and a body holding every key with its type.
    static func read(_ request: HTTPServer.Request, token: String?) -> Heartbeat {
        var violations = requestViolations(request)
        let sentToken = request.header("X-Heartbeat-Token")
        if sentToken?.isEmpty ?? true {
            violations.append("no X-Heartbeat-Token")
        } else if let token, sentToken != token {
            violations.append("X-Heartbeat-Token is not the playback's token")
        }
        var body = Body(request.body)
        var heartbeat = Heartbeat(
            token: sentToken, deviceID: body.string("deviceId"), contentID: body.string("contentId", nullable: true),
            catalogType: body.string("catalogType", nullable: true), primaryContentID: body.string("primaryContentId", nullable: true),
            sessionID: body.string("sessionId", nullable: true), event: body.string("event", oneOf: events),
            state: body.string("state", oneOf: states), playhead: body.number("playhead", nullable: true),
            bookmark: body.number("bookmark", nullable: true), multiStream: body.boolean("multiStream"),
            trackViewersCount: body.boolean("trackViewersCount"), ts: body.number("ts"), headers: request.headers,
            violations: [], receivedAt: request.receivedAt)
        heartbeat.violations = violations + body.violations
        return heartbeat
    }

    static func readConcurrency(_ request: HTTPServer.Request) -> ConcurrencyRequest {
        var body = Body(request.body)
        var concurrency = ConcurrencyRequest(
            deviceID: body.string("deviceId"), contentID: body.string("contentId", nullable: true),
            event: body.string("event", oneOf: ["start", "stop"]), violations: [])
        concurrency.violations = requestViolations(request) + body.violations
        return concurrency
    }

    private static func requestViolations(_ request: HTTPServer.Request) -> [String] {
        var violations: [String] = []
        if request.method != "POST" { violations.append("method \(request.method), not POST") }
        let mediaType = request.header("Content-Type")?.split(separator: ";").first?.filter { $0 != " " }.lowercased()
        if mediaType != "application/json" { violations.append("Content-Type \(request.header("Content-Type") ?? "none"), not application/json") }
        return violations
    }

    /// A JSON object's members, each read once with the type the contract gives it.
    private struct Body {
        /// Nil when the body is no JSON object: then its members are not looked for.
        private var members: [String: Value]?
        private(set) var violations: [String] = []

        init(_ bytes: [UInt8]) {
            guard let object = try? JSONDecoder().decode([String: Value].self, from: Data(bytes)) else {
                violations.append("the body is not a JSON object")
                return
            }
            members = object
        }

        mutating func string(_ key: String, nullable: Bool = false, oneOf allowed: Set<String>? = nil) -> String? {
            switch take(key, nullable: nullable) {
            case .string(let value)?:
                if let allowed, !allowed.contains(value) { violations.append("\(key) \"\(value)\" is none of \(allowed.sorted())") }
                return value
            case nil: return nil
            case let other?: return mistyped(key, other, "a string")
            }
        }

        mutating func number(_ key: String, nullable: Bool = false) -> Double? {
            switch take(key, nullable: nullable) {
            case .number(let value)?: return value
            case nil: return nil
            case let other?: return mistyped(key, other, "a number")
            }
        }

        mutating func boolean(_ key: String) -> Bool? {
            switch take(key, nullable: false) {
            case .boolean(let value)?: return value
            case nil: return nil
            case let other?: return mistyped(key, other, "true or false")
            }
        }

        /// The member's value; nil, and a violation unless it may be null, when missing or null.
        private mutating func take(_ key: String, nullable: Bool) -> Value? {
            guard let members else { return nil }
            guard let value = members[key] else {
                violations.append("no \(key)")
                return nil
            }
            guard case .null = value else { return value }
            if !nullable { violations.append("\(key) is null") }
            return nil
        }

        private mutating func mistyped<T>(_ key: String, _ value: Value, _ expected: String) -> T? {
            violations.append("\(key) is \(value.kind), not \(expected)")
            return nil
        }
    }

    /// One JSON value, by the kind the contract checks.
    private enum Value: Decodable {
        case null, boolean(Bool), number(Double), string(String), other(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .boolean(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else {
                self = .other("an array or object")
            }
        }

        var kind: String {
            switch self {
            case .null: "null"
            case .boolean: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .other(let kind): kind
            }
        }
    }
}

extension SimulatedHeartbeatService.Event {
    /// The event as an answer's `events` carries it.
    var json: String {
        switch self {
        case .blackout(let action, let url):
            JSONLine.encode(["event": "blackout", "action": action, "blackoutUrl": url].compactMapValues { $0 })
        case .liveProgramStart: #"{"event":"liveProgramStart"}"#
        case .liveEventEnd: #"{"event":"liveEventEnd"}"#
        case .overflowEventEnd: #"{"event":"overflowEventEnd"}"#
        }
    }
}
