import BeaconTesting
import Testing
@testable import BeaconDomain

@Suite(.timeLimit(.minutes(2))) struct MediaCollectionOutboxTests {
    private static let endpoint = "http://collector.test"

    private static func emission(_ type: MediaCollectionEventType, session: Int = 1, ts: Milliseconds = 0) -> MediaCollectionEmission {
        MediaCollectionEmission(session: session, event: MediaCollectionEvent(type: type, playhead: 0, ts: ts))
    }

    private static func answer(_ status: Int, location: String? = nil, retryAfter: String? = nil) -> Result<HTTPClientResponse, HTTPClientError> {
        .success(HTTPClientResponse(status: status, finalURL: "", body: [], latencyMilliseconds: 1, retryAfter: retryAfter, location: location))
    }

    private static let created = answer(201, location: "/api/v1/sessions/sid-1")

    private var random = SeededGenerator(seed: 7)

    private mutating func sendNext(_ outbox: inout MediaCollectionOutbox, answer: Result<HTTPClientResponse, HTTPClientError>, now: Milliseconds = 0) -> (String, MediaCollectionOutbox.Outcome?) {
        guard case .send(let request) = outbox.next(now: now) else { return ("", nil) }
        return (request.url(endpoint: Self.endpoint), outbox.record(answer, now: now, wallNow: 0, using: &random))
    }

    @Test mutating func nothingGoesToEventsBeforeTheSessionStartsAnswerAndThenInOrder() {
        var outbox = MediaCollectionOutbox()
        outbox.enqueue([Self.emission(.sessionStart), Self.emission(.play), Self.emission(.ping)])
        guard case .send(let start) = outbox.next(now: 0) else { Issue.record("no request"); return }
        #expect(start.url(endpoint: Self.endpoint) == "http://collector.test/api/v1/sessions")
        #expect(outbox.next(now: 0) == .idle)
        #expect(outbox.record(Self.created, now: 0, wallNow: 0, using: &random) == .sessionOpened(session: 1, sessionID: "sid-1"))
        let play = sendNext(&outbox, answer: Self.answer(204))
        #expect(play.0 == "http://collector.test/api/v1/sessions/sid-1/events")
        #expect(play.1 == .delivered(.play, status: 204))
        #expect(sendNext(&outbox, answer: Self.answer(204)).1 == .delivered(.ping, status: 204))
        #expect(outbox.isEmpty)
        #expect(outbox.sent == 3)
    }

    @Test mutating func aCreatedWithoutLocationRefusesTheSessionAndDropsItsEvents() {
        var outbox = MediaCollectionOutbox()
        outbox.enqueue([Self.emission(.sessionStart), Self.emission(.play)])
        #expect(sendNext(&outbox, answer: Self.answer(201)).1 == .sessionRefused(session: 1, reason: "HTTP 201 without a session id in Location", dropped: 1))
        outbox.enqueue([Self.emission(.pauseStart)])
        #expect(outbox.isEmpty)
        #expect(outbox.dropped == 2)
        outbox.enqueue([Self.emission(.sessionStart, session: 2)])
        #expect(sendNext(&outbox, answer: Self.answer(400)).1 == .sessionRefused(session: 2, reason: "HTTP 400", dropped: 0))
    }

    @Test mutating func networkErrorsAnd5xxAreRetriedWithBackoffKeepingOrderAndTs() {
        var outbox = MediaCollectionOutbox(backoff: Backoff(base: 1000, cap: 8000))
        outbox.enqueue([Self.emission(.sessionStart, ts: 10), Self.emission(.play, ts: 11)])
        _ = sendNext(&outbox, answer: Self.created)
        var now: Milliseconds = 0
        var waits: [Milliseconds] = []
        for failure in [Self.answer(503), .failure(.connectionFailed("refused")), .failure(.timedOut), Self.answer(500)] {
            guard case .send(let request) = outbox.next(now: now) else { Issue.record("no retry"); return }
            #expect(request.event.ts == 11)
            guard case .retrying(.play, _, let at) = outbox.record(failure, now: now, wallNow: 0, using: &random) else {
                Issue.record("not retried"); return
            }
            #expect(outbox.next(now: at - 1) == .wait(until: at))
            waits.append(at - now)
            now = at
        }
        #expect(zip(waits, [1000, 2000, 4000, 8000]).allSatisfy { $0 >= 1 && $0 <= $1 })
        #expect(outbox.failuresInARow == 4)
        #expect(sendNext(&outbox, answer: Self.answer(204), now: now).1 == .delivered(.play, status: 204))
        #expect(outbox.failuresInARow == 0)
        #expect(outbox.retried == 4)
    }

    @Test mutating func aRetryAfterIsHonouredUpToTheBackoffsCap() {
        var outbox = MediaCollectionOutbox(backoff: Backoff(base: 1000, cap: 30_000))
        outbox.enqueue([Self.emission(.sessionStart)])
        guard case .retrying(_, _, let at) = sendNext(&outbox, answer: Self.answer(429, retryAfter: "20")).1 else {
            Issue.record("not retried"); return
        }
        #expect(at >= 20_000)
    }

    @Test mutating func aGoneSessionDropsItsRemainingEventsAndWhatItMakesLater() {
        var outbox = MediaCollectionOutbox()
        outbox.enqueue([Self.emission(.sessionStart), Self.emission(.play), Self.emission(.adBreakStart), Self.emission(.ping)])
        _ = sendNext(&outbox, answer: Self.created)
        #expect(sendNext(&outbox, answer: Self.answer(410)).1 == .sessionGone(session: 1, status: 410, dropped: 2))
        outbox.enqueue([Self.emission(.ping), Self.emission(.sessionStart, session: 2), Self.emission(.play, session: 2)])
        #expect(outbox.queue.map(\.session) == [2, 2])
        #expect(outbox.sessionID(of: 1) == nil)
    }

    @Test mutating func aNotFoundIsAGoneSessionTooAndAnother4xxDropsOnlyThatEvent() {
        var outbox = MediaCollectionOutbox()
        outbox.enqueue([Self.emission(.sessionStart), Self.emission(.play), Self.emission(.pauseStart)])
        _ = sendNext(&outbox, answer: Self.created)
        #expect(sendNext(&outbox, answer: Self.answer(400)).1 == .refused(.play, status: 400))
        #expect(sendNext(&outbox, answer: Self.answer(404)).1 == .sessionGone(session: 1, status: 404, dropped: 0))
        #expect(outbox.failed == 2)
    }

    @Test func overCapacityTheOldestPingsGoFirstThenOtherEventsNeverBounds() {
        var outbox = MediaCollectionOutbox(capacity: 4)
        outbox.enqueue([Self.emission(.sessionStart), Self.emission(.play), Self.emission(.ping, ts: 1), Self.emission(.ping, ts: 2)])
        outbox.enqueue([Self.emission(.adBreakStart)])
        #expect(outbox.queue.map(\.event.type) == [.sessionStart, .play, .ping, .adBreakStart])
        #expect(outbox.queue[2].event.ts == 2)
        outbox.enqueue([Self.emission(.adStart), Self.emission(.adComplete)])
        #expect(outbox.queue.map(\.event.type) == [.sessionStart, .adBreakStart, .adStart, .adComplete])
        outbox.enqueue([Self.emission(.adBreakComplete)])
        #expect(outbox.queue.map(\.event.type) == [.sessionStart, .adBreakStart, .adStart, .adComplete, .adBreakComplete])
        #expect(outbox.dropped == 3)
    }

    @Test mutating func theRequestInFlightIsNeverDropped() {
        var outbox = MediaCollectionOutbox(capacity: 2)
        outbox.enqueue([Self.emission(.sessionStart)])
        _ = sendNext(&outbox, answer: Self.created)
        outbox.enqueue([Self.emission(.ping)])
        guard case .send = outbox.next(now: 0) else { Issue.record("no request"); return }
        outbox.enqueue([Self.emission(.ping), Self.emission(.ping)])
        #expect(outbox.queue.count == 2)
        #expect(outbox.record(Self.answer(204), now: 0, wallNow: 0, using: &random) == .delivered(.ping, status: 204))
    }

    @Test func theSessionIdIsTheLocationsLastPathComponent() {
        #expect(MediaCollectionRequest.sessionID(fromLocation: "/api/v1/sessions/abc-123") == "abc-123")
        #expect(MediaCollectionRequest.sessionID(fromLocation: "https://x.test/api/v1/sessions/abc?x=1") == "abc")
        #expect(MediaCollectionRequest.sessionID(fromLocation: "/api/v1/sessions/abc/") == "abc")
        #expect(MediaCollectionRequest.sessionID(fromLocation: "/a/b c") == nil)
        #expect(MediaCollectionRequest.sessionID(fromLocation: "") == nil)
        #expect(MediaCollectionRequest.sessionID(fromLocation: nil) == nil)
    }
}
