import BeaconTesting
import Foundation
import Testing
@testable import BeaconDomain

/// Adobe's `offlineEnabled`: what the media-analytics reporter keeps of the events not sent yet,
/// and how a restart sends them within the Media Collection API's session rules.
@Suite(.timeLimit(.minutes(1))) struct MediaCollectionBacklogTests {
    private static let wall0: Milliseconds = 1_700_000_000_000
    private static let start = MediaCollectionEvent(
        type: .sessionStart, playhead: 0, ts: wall0, params: ["media.id": .string("ep-1"), "media.length": .number(1800.5)])

    private static func event(_ type: MediaCollectionEventType, ts: Milliseconds) -> MediaCollectionEvent {
        MediaCollectionEvent(type: type, playhead: 12.5, ts: ts, qoeData: ["media.qoe.bitrate": .integer(5_000_000)])
    }

    private var random = SeededGenerator(seed: 3)

    @Test func theBacklogIsTheQueueButPingsWithEachSessionsStartAndID() {
        var outbox = MediaCollectionOutbox()
        outbox.enqueue([
            MediaCollectionEmission(session: 1, event: Self.start), MediaCollectionEmission(session: 1, event: Self.event(.play, ts: Self.wall0 + 1)),
            MediaCollectionEmission(session: 1, event: Self.event(.ping, ts: Self.wall0 + 2)),
            MediaCollectionEmission(session: 1, event: Self.event(.pauseStart, ts: Self.wall0 + 3)),
        ])
        #expect(outbox.backlog == MediaCollectionBacklog(sessions: [
            .init(number: 1, sessionID: nil, start: Self.start, events: [Self.start, Self.event(.play, ts: Self.wall0 + 1), Self.event(.pauseStart, ts: Self.wall0 + 3)]),
        ]))
    }

    @Test mutating func aSessionTheBackEndOpenedKeepsItsIDAndStartWhenItsStartWasSent() {
        var outbox = MediaCollectionOutbox()
        outbox.enqueue([MediaCollectionEmission(session: 1, event: Self.start), MediaCollectionEmission(session: 1, event: Self.event(.play, ts: Self.wall0 + 1))])
        _ = outbox.next(now: 0)
        let created = HTTPClientResponse(status: 201, finalURL: "", body: [], latencyMilliseconds: 1, location: "/api/v1/sessions/sid-9")
        _ = outbox.record(.success(created), now: 0, wallNow: Self.wall0, using: &random)
        #expect(outbox.backlog.sessions == [.init(number: 1, sessionID: "sid-9", start: Self.start, events: [Self.event(.play, ts: Self.wall0 + 1)])])
    }

    /// Alive: sent on under its id. Closed by the back end's idle timeout meanwhile: resumed in a
    /// new session with `media.resume`, just before its first event kept. Never opened: as made.
    @Test(arguments: [(Milliseconds(60_000), false), (MediaAnalyticsTracker.idleTimeout + 1, true)])
    func aRestartSendsWithinTheSessionRules(after gap: Milliseconds, resumed: Bool) {
        let play = Self.event(.play, ts: Self.wall0 + 1_000)
        let backlog = MediaCollectionBacklog(sessions: [
            .init(number: 4, sessionID: "sid-4", start: Self.start, events: [play]),
            .init(number: 5, sessionID: nil, start: Self.start, events: [Self.start, play]),
        ])
        let restored = backlog.restored(wallNow: play.ts + gap)
        #expect(restored.emissions.map(\.session) == (resumed ? [-1, -1, -2, -2] : [-1, -2, -2]))
        #expect(restored.sessionIDs == (resumed ? [:] : [-1: "sid-4"]))
        #expect(restored.emissions.last?.event == play)
        guard resumed else { return }
        let again = restored.emissions[0].event
        #expect(again.type == .sessionStart && again.params["media.resume"] == .boolean(true) && again.params["media.id"] == .string("ep-1"))
        #expect(again.ts == play.ts - 1 && again.playhead == play.playhead)
    }

    /// Kept as the request bodies; read back the same (a whole number comes back an integer, which
    /// the API takes as a number).
    @Test func theBacklogIsKeptAsTheRequestBodies() throws {
        let backlog = MediaCollectionBacklog(sessions: [.init(number: 2, sessionID: "s", start: Self.start, events: [Self.event(.play, ts: Self.wall0 + 1)])])
        let text = JSONLine.encode(backlog)
        #expect(text.contains(#""eventType":"sessionStart""#) && text.contains(#""playerTime":{"#))
        let read = try JSONDecoder().decode(MediaCollectionBacklog.self, from: Data(text.utf8))
        #expect(read.sessions[0].events == backlog.sessions[0].events)
        #expect(read.sessions[0].start.params["media.length"] == .number(1800.5))
        #expect(read.sessions[0].start.body == Self.start.body)
    }

    /// With `offline-enabled` the core keeps the backlog whenever it changed, before the request
    /// that may change it again; without it, never.
    @Test(arguments: [true, false])
    func theCoreKeepsTheBacklogWhenItChanges(offline: Bool) {
        var settings = MediaFixture.settings
        settings.offlineEnabled = offline
        var core = MediaAnalyticsReporting(reporting: MediaFixture.reporting(settings))
        _ = core.take(MediaFixture.load(), now: 0, wallNow: Self.wall0)
        let actions = core.take(.playerEventObserved(.play), now: 0, wallNow: Self.wall0)
        let effects = actions.compactMap { if case .perform(let effect) = $0 { effect } else { nil } }
        guard offline else {
            #expect(effects.allSatisfy { if case .send = $0 { true } else { false } })
            return
        }
        guard case .keep(let backlog)? = effects.first, case .send? = effects.last else {
            Issue.record("keep, then send: \(effects)")
            return
        }
        #expect(backlog.sessions.first?.events.map(\.type) == [.sessionStart, .play])
        #expect(core.wake(now: 0, wallNow: Self.wall0).isEmpty, "nothing changed, nothing kept again")
    }

    /// A restart with a backlog: its events go first, in order, then the new run's.
    @Test func aCoreGivenABacklogSendsItFirst() {
        let backlog = MediaCollectionBacklog(sessions: [.init(number: 1, sessionID: nil, start: Self.start, events: [Self.start, Self.event(.play, ts: Self.wall0 + 1)])])
        var core = MediaAnalyticsReporting(reporting: MediaFixture.reporting(), backlog: backlog, wallNow: Self.wall0 + 5_000)
        #expect(core.outbox.queue.map(\.event.type) == [.sessionStart, .play])
        let actions = core.take(MediaFixture.load(), now: 0, wallNow: Self.wall0 + 5_000)
        let sent = actions.compactMap { if case .perform(.send(let request)) = $0 { request } else { nil } }
        #expect(sent.map(\.event) == [Self.start])
    }
}
