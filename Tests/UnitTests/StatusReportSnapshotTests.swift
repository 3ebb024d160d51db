import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The status document assembled from the daemon's snapshot, outside the actor.
@Suite(.timeLimit(.minutes(2))) struct StatusReportSnapshotTests {
    static let session = SessionEndpoints(mediaURL: "http://m", manifestURL: "http://m", trackingURL: "http://t", sessionID: "s1")

    static func delivery(session: String, adBreak: String, url: String, state: BeaconDelivery.State, dueAt: Milliseconds) -> BeaconDelivery {
        let key = BeaconDelivery.Key(sessionKey: session, adBreakID: adBreak, adID: "a", event: .impression, eventStart: 0, url: url, occurrence: 0)
        return BeaconDelivery(key: key, reference: EventReference(adBreakID: adBreak, adIndex: 0, eventIndex: 0), state: state, dueAt: dueAt)
    }

    static func ready(_ tracking: TrackingSession = TrackingSession(retention: 600_000), nextMetadataAt: Milliseconds? = nil) -> DaemonSnapshot.Phase {
        .ready(DaemonSnapshot.Session(endpoints: session, tracking: tracking, metadataFailures: 3, nextMetadataAt: nextMetadataAt))
    }

    @Test func thePhaseIsTheState() {
        var paused = TrackingSession(retention: 600_000)
        _ = paused.observe(PlayheadTick(playhead: Fixture.t0), arrivalTime: 0)
        _ = paused.observe(.pause, arrivalTime: 0)
        let phases: [(DaemonSnapshot.Phase, String)] = [
            (.idle, "idle"), (.initializing, "initializing"), (.failed(reason: "HTTP 404"), "error"), (Self.ready(), "ready"),
            (Self.ready(paused), "paused"),
        ]
        for (phase, state) in phases {
            #expect(StatusReport(DaemonSnapshot(version: "v", phase: phase)).state == state)
        }
        let report = StatusReport(DaemonSnapshot(version: "v", phase: Self.ready(paused)))
        #expect(report.session == Self.session)
        #expect(report.playhead == Fixture.t0)
        #expect(report.metadataFailures == 3)
    }

    @Test func aFailedInitSaysWhyBeforeTheLastError() {
        var failed = DaemonSnapshot(version: "v", phase: .failed(reason: "HTTP 404"))
        failed.lastError = "metadata: HTTP 500"
        #expect(StatusReport(failed).lastError == "HTTP 404")
        var idle = DaemonSnapshot(version: "v", phase: .idle)
        idle.lastError = "metadata: HTTP 500"
        #expect(StatusReport(idle).lastError == "metadata: HTTP 500")
    }

    @Test func schedulesAreShownOnTheWallClock() {
        var initializing = DaemonSnapshot(version: "v", phase: .initializing)
        initializing.initFailures = 2
        initializing.nextInitAt = 7_000
        initializing.wallOffset = Fixture.t0
        let retrying = StatusReport(initializing)
        #expect(retrying.nextInitAt == Fixture.t0 + 7_000)
        #expect(retrying.initFailures == 2)
        var playing = DaemonSnapshot(version: "v", phase: Self.ready(nextMetadataAt: 5_000))
        playing.wallOffset = Fixture.t0
        #expect(StatusReport(playing).nextMetadataAt == Fixture.t0 + 5_000)
    }

    /// Unfinished deliveries of any session and the finished ones of the session played, by due time, ad break and URL.
    @Test func statusListsUnfinishedDeliveriesAndThoseOfTheSessionPlayedInOrder() {
        let all = [
            Self.delivery(session: "old", adBreak: "p", url: "http://old-due", state: .due, dueAt: 30),
            Self.delivery(session: "old", adBreak: "p", url: "http://old-done", state: .delivered, dueAt: 10),
            Self.delivery(session: "s1", adBreak: "p", url: "http://b", state: .delivered, dueAt: 20),
            Self.delivery(session: "s1", adBreak: "p", url: "http://a", state: .failed, dueAt: 20),
            Self.delivery(session: "s1", adBreak: "o", url: "http://c", state: .inFlight, dueAt: 20),
        ]
        var snapshot = DaemonSnapshot(version: "v", phase: Self.ready())
        snapshot.wallOffset = 1_000
        snapshot.deliveries = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
        let report = StatusReport(snapshot)
        #expect(report.deliveries.map(\.url) == ["http://c", "http://a", "http://b", "http://old-due"])
        #expect(report.deliveries.map(\.dueAt) == [1_020, 1_020, 1_020, 1_030])
    }
}
