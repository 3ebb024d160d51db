import BeaconDomain
import BeaconRuntime
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Adobe's Media Collection API on loopback, for the tests and the demo: `POST /api/v1/sessions`
/// answers `201` with the session in `Location`, `POST /api/v1/sessions/{sid}/events` answers
/// `204`. Every request is checked as the real back end checks it (``MediaCollectionSchema``) and
/// against the order a session's events follow (``MediaCollectionSessionLedger``); what it takes
/// and what it refuses are recorded, and a refusal that is the client's fault is a violation, so a
/// good run leaves ``violations()`` empty. Tests tell it to fail: answer a status to the next
/// requests or for a while, answer slowly, or stop listening.
package final class SimulatedMediaCollectionService: Sendable {
    /// An event (or session start) taken, with its session.
    package struct Received: Sendable, Equatable {
        package var sessionID: String
        package var event: MediaCollectionEvent
        /// Wall-clock epoch milliseconds.
        package var receivedAt: Milliseconds
    }

    /// One request and its answer: taken (201 or 204) or refused, and why.
    package struct Exchange: Sendable, Equatable {
        /// The session the request named or started, if any.
        package var sessionID: String?
        /// The event type, when the body said one.
        package var eventType: String?
        package var status: Int
        /// Why it was refused; nil when it was taken.
        package var reason: String?
        /// The client's fault (a bad body, a broken order, an unknown session), not a failure it was told to simulate.
        package var isViolation: Bool
        package var receivedAt: Milliseconds

        package var isTaken: Bool { reason == nil }
    }

    /// Which requests a simulated failure answers.
    package enum Requests: Sendable {
        case sessionStarts, events, all
    }

    /// What goes on the wire after `endpoint`.
    package static let sessionsPath = "/api/v1/sessions"

    private let core: Core
    private let listener: Mutex<HTTPServer?>
    private let port: Int

    /// The value of the reporter's `endpoint` setting: `http://127.0.0.1:PORT`.
    package let endpoint: String

    /// Starts the service on a free loopback port; `now` gives wall-clock epoch milliseconds, and
    /// `observer` hears of each exchange as it happens (the demo's screen).
    package static func start(
        now: @escaping @Sendable () -> Milliseconds = WallClock.now, observer: (@Sendable (Exchange) -> Void)? = nil
    ) async throws -> SimulatedMediaCollectionService {
        let core = Core(now: now, observer: observer)
        let server = try await Self.listen(port: 0, core: core)
        return SimulatedMediaCollectionService(core: core, server: server)
    }

    private init(core: Core, server: HTTPServer) {
        self.core = core
        self.listener = Mutex(server)
        self.port = server.port
        self.endpoint = server.baseURL
    }

    private static func listen(port: Int, core: Core) async throws -> HTTPServer {
        try await HTTPServer.start(host: "127.0.0.1", port: port) { request in await core.respond(to: request) }
    }

    package func stop() async {
        await refuseConnections()
    }

    // MARK: What it saw

    /// Every session start and event taken, in arrival order.
    package func received() -> [Received] { core.state.withLock { $0.received } }

    /// The events taken for `sessionID`, its `sessionStart` first.
    package func events(of sessionID: String) -> [MediaCollectionEvent] {
        received().filter { $0.sessionID == sessionID }.map(\.event)
    }

    /// The sessions started, in order.
    package func sessionIDs() -> [String] {
        received().filter { $0.event.type == .sessionStart }.map(\.sessionID)
    }

    /// Every request and its answer, in arrival order.
    package func exchanges() -> [Exchange] { core.state.withLock { $0.exchanges } }

    /// Every refused request, in arrival order.
    package func refusals() -> [Exchange] { exchanges().filter { !$0.isTaken } }

    /// The refusals that are the client's fault; empty in a good run.
    package func violations() -> [Exchange] { exchanges().filter(\.isViolation) }

    // MARK: Failures to simulate

    /// Answers `status` to the next `count` requests of `requests` (after their body passed the
    /// schema). A 404 or 410 to an event ends its session: the back end forgot it.
    package func answer(_ status: Int, toNext count: Int, of requests: Requests = .events) {
        core.state.withLock { $0.failures.queue += Array(repeating: Failure(status: status, requests: requests), count: count) }
    }

    /// Answers `status` to every request of `requests` until `duration` has passed: an outage.
    package func answer(_ status: Int, for duration: Milliseconds, of requests: Requests = .all) {
        let until = core.now() + duration
        core.state.withLock { $0.failures.outage = (Failure(status: status, requests: requests), until) }
    }

    /// Waits `delay` before each answer from now on; nil answers at once again.
    package func answerAfter(_ delay: Duration?) {
        core.state.withLock { $0.failures.delay = delay }
    }

    /// Stops listening and closes every connection: connections are refused until ``acceptConnections()``.
    package func refuseConnections() async {
        let server = listener.withLock { server in
            defer { server = nil }
            return server
        }
        await server?.stop()
    }

    /// Listens again on the same port.
    package func acceptConnections() async throws {
        guard listener.withLock({ $0 == nil }) else { return }
        let server = try await Self.listen(port: port, core: core)
        listener.withLock { $0 = server }
    }

    // MARK: The back end

    fileprivate struct Failure: Sendable {
        var status: Int
        var requests: Requests

        func applies(to endpoint: MediaCollectionSchema.Endpoint) -> Bool {
            switch (requests, endpoint) {
            case (.all, _), (.sessionStarts, .sessions), (.events, .events): true
            default: false
            }
        }
    }

    fileprivate struct Failures {
        var queue: [Failure] = []
        var outage: (failure: Failure, until: Milliseconds)?
        var delay: Duration?

        /// The status to answer instead of looking at the request, taking it from the queue.
        mutating func take(for endpoint: MediaCollectionSchema.Endpoint, now: Milliseconds) -> Int? {
            if let outage, now < outage.until, outage.failure.applies(to: endpoint) { return outage.failure.status }
            guard let index = queue.firstIndex(where: { $0.applies(to: endpoint) }) else { return nil }
            return queue.remove(at: index).status
        }
    }

    fileprivate struct State {
        var sessions: [String: MediaCollectionSessionLedger] = [:]
        /// Sessions the back end forgot when told to answer 404 or 410, with that status.
        var gone: [String: Int] = [:]
        var sessionsStarted = 0
        var received: [Received] = []
        var exchanges: [Exchange] = []
        var failures = Failures()
    }

    fileprivate final class Core: Sendable {
        let state = Mutex(State())
        let now: @Sendable () -> Milliseconds
        let observer: (@Sendable (Exchange) -> Void)?

        init(now: @escaping @Sendable () -> Milliseconds, observer: (@Sendable (Exchange) -> Void)?) {
            self.now = now
            self.observer = observer
        }

        func respond(to request: HTTPServer.Request) async -> HTTPServer.Response {
            if let delay = state.withLock({ $0.failures.delay }) {
                try? await Task.sleep(for: delay)
            }
            let answer = Answer(time: now())
            let answered = state.withLock { state in
                let answered = route(request, &state, answer)
                state.exchanges.append(answered.exchange)
                return answered
            }
            observer?(answered.exchange)
            return answered.response
        }

        private typealias Answered = (response: HTTPServer.Response, exchange: Exchange)

        /// Makes the answer to a request that came at `time`, and its exchange.
        private struct Answer {
            var time: Milliseconds

            func take(_ response: HTTPServer.Response, session: String, eventType: MediaCollectionEventType) -> Answered {
                (response, Exchange(sessionID: session, eventType: eventType.rawValue, status: response.status, isViolation: false, receivedAt: time))
            }

            func refuse(_ status: Int, _ reason: String, session: String? = nil, eventType: String? = nil, violation: Bool = true) -> Answered {
                // The real back end's error body: a JSON object with a message.
                let encoder = JSONEncoder()
                encoder.outputFormatting = .withoutEscapingSlashes
                let body = (try? encoder.encode(["message": reason])) ?? Data()
                let exchange = Exchange(sessionID: session, eventType: eventType, status: status, reason: reason, isViolation: violation, receivedAt: time)
                return (.json(String(decoding: body, as: UTF8.self), status: status), exchange)
            }
        }

        private func route(_ request: HTTPServer.Request, _ state: inout State, _ answer: Answer) -> Answered {
            let sessions = SimulatedMediaCollectionService.sessionsPath
            guard request.method == "POST" else { return answer.refuse(405, "\(request.method) \(request.path): only POST is served") }
            if request.path == sessions { return startSession(request, &state, answer) }
            let rest = request.path.dropFirst(sessions.count + 1)
            guard request.path.hasPrefix(sessions + "/"), rest.hasSuffix("/events"), rest.count > "/events".count else {
                return answer.refuse(404, "no such endpoint \(request.path)")
            }
            return takeEvent(String(rest.dropLast("/events".count)), request, &state, answer)
        }

        private func startSession(_ request: HTTPServer.Request, _ state: inout State, _ answer: Answer) -> Answered {
            let start: MediaCollectionEvent
            switch MediaCollectionSchema.check(.sessions, contentType: request.header("Content-Type"), body: request.body) {
            case .failure(let refusal): return answer.refuse(400, refusal.description, eventType: "sessionStart")
            case .success(let event): start = event
            }
            if let status = state.failures.take(for: .sessions, now: answer.time) {
                return answer.refuse(status, "told to answer \(status)", eventType: "sessionStart", violation: false)
            }
            switch MediaCollectionSessionLedger.opening(start) {
            case .failure(let violation): return answer.refuse(violation.status, violation.description, eventType: "sessionStart")
            case .success(let ledger):
                state.sessionsStarted += 1
                let sessionID = "sim-session-\(state.sessionsStarted)"
                state.sessions[sessionID] = ledger
                state.received.append(Received(sessionID: sessionID, event: start, receivedAt: answer.time))
                let location = "\(SimulatedMediaCollectionService.sessionsPath)/\(sessionID)"
                return answer.take(HTTPServer.Response(status: 201, headers: [("Location", location)]), session: sessionID, eventType: .sessionStart)
            }
        }

        private func takeEvent(_ sessionID: String, _ request: HTTPServer.Request, _ state: inout State, _ answer: Answer) -> Answered {
            if let status = state.gone[sessionID] {
                return answer.refuse(status, "the session \(sessionID) is gone", session: sessionID, violation: false)
            }
            guard var ledger = state.sessions[sessionID] else {
                return answer.refuse(404, "no session \(sessionID) was started: an event before its session's 201, or a made-up id", session: sessionID)
            }
            let event: MediaCollectionEvent
            switch MediaCollectionSchema.check(.events, contentType: request.header("Content-Type"), body: request.body) {
            case .failure(let refusal): return answer.refuse(400, refusal.description, session: sessionID)
            case .success(let taken): event = taken
            }
            let type = event.type.rawValue
            if let status = state.failures.take(for: .events, now: answer.time) {
                if status == 404 || status == 410 { state.gone[sessionID] = status }
                return answer.refuse(status, "told to answer \(status)", session: sessionID, eventType: type, violation: false)
            }
            do {
                try ledger.take(event)
            } catch {
                return answer.refuse(error.status, error.description, session: sessionID, eventType: type)
            }
            state.sessions[sessionID] = ledger
            state.received.append(Received(sessionID: sessionID, event: event, receivedAt: answer.time))
            return answer.take(.status(204), session: sessionID, eventType: event.type)
        }
    }
}
