import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The status document assembled from the daemon's snapshot, outside the actor.
@Suite struct StatusReportSnapshotTests {
    static let session = SessionEndpoints(mediaUrl: "http://m", manifestUrl: "http://m", trackingUrl: "http://t", sessionId: "s1")

    static func delivery(session: String, pod: String, url: String, state: BeaconDelivery.State, dueAt: Milliseconds) -> BeaconDelivery {
        let key = BeaconDelivery.Key(sessionID: session, podID: pod, adID: "a", event: .impression, eventStart: 0, url: url, occurrence: 0)
        return BeaconDelivery(key: key, reference: EventReference(podID: pod, adIndex: 0, eventIndex: 0), state: state, dueAt: dueAt)
    }

    @Test(arguments: [
        (DaemonSnapshot.Phase.idle, "idle"), (.initializing, "initializing"), (.failed(reason: "HTTP 404"), "error"),
        (.playing(.paused), "paused"), (.playing(.ready), "ready"),
    ])
    func thePhaseIsTheState(phase: DaemonSnapshot.Phase, state: String) {
        #expect(StatusReport(DaemonSnapshot(version: "v", phase: phase)).state == state)
    }

    @Test func aFailedInitSaysWhyBeforeTheLastError() {
        let failed = StatusReport(DaemonSnapshot(version: "v", phase: .failed(reason: "HTTP 404"), lastError: "metadata: HTTP 500"))
        #expect(failed.lastError == "HTTP 404")
        let idle = StatusReport(DaemonSnapshot(version: "v", phase: .idle, lastError: "metadata: HTTP 500"))
        #expect(idle.lastError == "metadata: HTTP 500")
    }

    @Test func schedulesAreShownOnTheWallClock() {
        let report = StatusReport(
            DaemonSnapshot(
                version: "v", phase: .initializing, nextMetadataAt: 5_000, initFailures: 2, nextInitAt: 7_000, wallOffset: Fixture.t0,
                deliveries: [:]))
        #expect(report.nextMetadataAt == Fixture.t0 + 5_000)
        #expect(report.nextInitAt == Fixture.t0 + 7_000)
        #expect(report.initFailures == 2)
    }

    /// Unfinished deliveries of any session and the finished ones of the session played, by due time, pod and URL.
    @Test func statusListsUnfinishedDeliveriesAndThoseOfTheSessionPlayedInOrder() {
        let all = [
            Self.delivery(session: "old", pod: "p", url: "http://old-due", state: .due, dueAt: 30),
            Self.delivery(session: "old", pod: "p", url: "http://old-done", state: .delivered, dueAt: 10),
            Self.delivery(session: "s1", pod: "p", url: "http://b", state: .delivered, dueAt: 20),
            Self.delivery(session: "s1", pod: "p", url: "http://a", state: .failed, dueAt: 20),
            Self.delivery(session: "s1", pod: "o", url: "http://c", state: .inFlight, dueAt: 20),
        ]
        let report = StatusReport(
            DaemonSnapshot(
                version: "v", phase: .playing(.playing), session: Self.session, wallOffset: 1_000,
                deliveries: Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })))
        #expect(report.deliveries.map(\.url) == ["http://c", "http://a", "http://b", "http://old-due"])
        #expect(report.deliveries.map(\.dueAt) == [1_020, 1_020, 1_020, 1_030])
    }
}
